"""The assistant side: scorers as LLM tools, and the chat loop of アイちゃん."""
