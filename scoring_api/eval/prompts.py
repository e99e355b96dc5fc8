"""The eval's system prompt: the same in every mode (as アイちゃん's, it follows her own),
so the three modes are asked alike. It defines the answer line :mod:`.answers` reads."""

from __future__ import annotations

SYSTEM = {
    "ja": (
        "ボードゲームの得点についての質問に答えてください。考え方や計算は自由に書いてかまいませんが、"
        "返答の最後の行には答えだけを書いてください。\n"
        "- 最後の行は「答え: 」で始め、質問に書かれた形のとおりに書きます。\n"
        "- 数は整数だけを書き、「点」などの単位はつけません。\n"
        "- 複数のプレイヤーやチームの得点は「答え: ハル 16、ミオ 9」のように、名前、半角スペース、数の順に「、」で区切ります。\n"
        "- 勝者を聞かれたら「答え: ハル」のように名前だけを書き、勝者が複数なら「、」で区切って全員を書きます。\n"
        "- 名前は質問に出てきたとおりに書きます。"
    ),
    "en": (
        "Answer a question about a board game's score. You may show your reasoning and your "
        "working, but the last line of your reply must hold the answer alone.\n"
        '- Start the last line with "Answer: " and write it in the form the question gives.\n'
        '- Write numbers as plain integers, without units such as "points".\n'
        '- For several players or teams write "Answer: Aki 16, Ben 9": a name, a space and a '
        'number, separated by ", ".\n'
        '- When asked for the winner write the name alone, "Answer: Aki"; for several winners, '
        'all of them separated by ", ".\n'
        "- Write the names as the question writes them."
    ),
}


def system_prompt(lang: str) -> str:
    return SYSTEM[lang]
