"""openapi.yaml is generated from the schemas, served as committed, and honoured by the app."""

import atexit
import os
from pathlib import Path

import pytest
import schemathesis
import yaml
from hypothesis import HealthCheck, settings
from schemathesis.config import SchemathesisConfig

from scoring_api import create_app
from scoring_api.openapi import spec_yaml
from scoring_api.tools import tool_definitions
from tests.conftest import API_KEY
from tests.fake_openai import FakeModel, calls, reply

ROOT = Path(__file__).resolve().parent.parent


def test_committed_file_is_the_generated_spec():
    committed = (ROOT / "openapi.yaml").read_text(encoding="utf-8")
    assert committed == spec_yaml(), "run: python -m scoring_api.openapi > openapi.yaml"


def test_served_spec_is_the_committed_file(client):
    response = client.get("/openapi.yaml")
    assert response.status_code == 200
    assert response.mimetype == "application/yaml"
    assert response.get_data(as_text=True) == (ROOT / "openapi.yaml").read_text(encoding="utf-8")


def test_the_deployer_sets_the_public_https_server():
    client = create_app({"TESTING": True, "PUBLIC_URL": "https://scoring.example.com/"}).test_client()
    spec = yaml.safe_load(client.get("/openapi.yaml").get_data(as_text=True))
    assert spec["servers"][0] == {"url": "https://scoring.example.com", "description": "This deployment"}
    assert spec["paths"] == yaml.safe_load(spec_yaml())["paths"]


def test_operation_ids_are_unique_and_fit_hosted_assistants():
    spec = yaml.safe_load(spec_yaml())
    ids = [op["operationId"] for item in spec["paths"].values() for op in item.values()]
    assert len(ids) == len(set(ids))
    assert all(
        len(op.get("summary", "")) <= 300 and len(op.get("description", "")) <= 300
        for item in spec["paths"].values()
        for op in item.values()
    )


def test_every_operation_is_described_and_every_route_documented(app):
    spec = yaml.safe_load(spec_yaml())
    assert spec["openapi"] == "3.1.0"
    documented = set()
    for path, item in spec["paths"].items():
        for method, op in item.items():
            documented.add((path, method.upper()))
            assert op["operationId"] and op["summary"] and op["description"], (path, method)
            assert len(op["summary"]) <= 300 and len(op["description"]) <= 300
    tools = {path for path, _ in documented if path.startswith("/api/v1/tools/")}
    served = {
        (rule.rule, method)
        for rule in app.url_map.iter_rules()
        for method in rule.methods - {"HEAD", "OPTIONS"}
        # the form; MCP speaks JSON-RPC, /v1 OpenAI's Chat Completions and /metrics
        # Prometheus' text format (for operators), each its own protocol
        if rule.endpoint.split(".")[0] not in {"static", "web", "mcp", "models", "completions", "metrics"}
    }
    assert ("/api/v1/tools/<name>", "POST") in served  # documented once per tool:
    assert len(tools) == len(tool_definitions())
    assert served - {("/api/v1/tools/<name>", "POST")} == documented - {(p, "POST") for p in tools}


def _chat_model_step(body):
    """The contract run's model: it calls a scorer once, then answers from its result
    (the chat's own behaviour is tested in tests/assistant/test_chat.py)."""
    if body["messages"][-1]["role"] == "tool":
        return reply("Fertig.")["message"]
    return calls(("applejack_starting_honey", {"players": 2}))["message"]


#: A scripted model for the chat operation, so that the contract covers it too.
CHAT_MODEL = FakeModel().start()
CHAT_MODEL.play(_chat_model_step, forever=True)
atexit.register(CHAT_MODEL.stop)

CONTRACT_APP = create_app(
    {
        "TESTING": True,
        "OPENAI_BASE_URL": CHAT_MODEL.base_url,
        "OPENAI_API_KEY": API_KEY,
        "OPENAI_MODEL": "fake-model",
        "CHAT_MAX_RETRIES": 0,
        "CHAT_OPEN": True,
    }
)

# Every operation, explicitly: schemathesis leaves out the one that served the schema
# (GET /openapi.yaml) unless a filter selects it.
schema = schemathesis.openapi.from_wsgi(
    "/openapi.yaml",
    CONTRACT_APP,
    config=SchemathesisConfig.from_path(str(ROOT / "schemathesis.toml")),
).include(path_regex="^/")


def test_the_contract_covers_every_operation():
    spec = yaml.safe_load(spec_yaml())
    documented = {(method.upper(), path) for path, item in spec["paths"].items() for method in item}
    tested = {(op.ok().method.upper(), op.ok().path) for op in schema.get_all_operations()}
    assert tested == documented
    assert {("GET", "/openapi.yaml"), ("GET", "/healthz"), ("POST", "/api/v1/chat"), ("GET", "/api/v1/tools")} <= tested


def test_the_document_declares_no_security_a_license_and_no_placeholder_contact():
    spec = yaml.safe_load(spec_yaml())
    assert spec["security"] == []
    assert spec["info"]["license"] == {"name": "MIT", "identifier": "MIT"}  # LICENSE, pyproject.toml
    assert "contact" not in spec["info"]  # the project publishes no address


def test_the_yaml_document_is_described_as_the_mapping_it_is(client):
    described = yaml.safe_load(spec_yaml())["paths"]["/openapi.yaml"]["get"]["responses"]["200"]["content"]
    assert list(described) == [client.get("/openapi.yaml").mimetype] == ["application/yaml"]
    document = yaml.safe_load(client.get("/openapi.yaml").get_data(as_text=True))
    assert described["application/yaml"]["schema"]["type"] == "object" and isinstance(document, dict)


def _request_schema(spec, path):
    ref = spec["paths"][path]["post"]["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    return spec["components"]["schemas"][ref.rsplit("/", 1)[1]]


def _component(spec, node):
    return spec["components"]["schemas"][node["$ref"].rsplit("/", 1)[1]]


def test_the_spec_states_the_list_rules_the_service_enforces(client):
    """What JSON Schema can say, the spec says, and the service refuses what it excludes:
    next-player needs 2 players (1 left means the game is over); a board apple's fields
    and a tile's beehive edges are distinct."""
    spec = yaml.safe_load(spec_yaml())
    players = _request_schema(spec, "/api/v1/fairy-black-box/next-player")["properties"]["players"]
    assert (players["minItems"], players["maxItems"]) == (2, 4)
    alone = client.post("/api/v1/fairy-black-box/next-player", json={"players": [{"name": "Aki", "treasure_count": 1}]})
    assert alone.status_code == 400 and alone.get_json()["error"]["code"] == "game_over"

    orchard = _component(spec, _request_schema(spec, "/api/v1/applejack/harvest")["properties"]["orchard"])
    board = _component(spec, orchard["properties"]["board"])
    apple = _component(spec, board["properties"]["apples"]["items"])
    assert apple["properties"]["fields"]["uniqueItems"] is True
    tile = _component(spec, orchard["properties"]["tiles"]["items"])
    assert tile["properties"]["beehives"]["uniqueItems"] is True
    for where, body in (
        ("fields", {"tiles": [], "board": {"apples": [{"variety": "red", "fields": [1, 1]}]}}),
        ("beehives", {"tiles": [{"field": 10, "apples": {"red": 1}, "beehives": ["e", "e"], "price": 2}]}),
    ):
        refused = client.post("/api/v1/applejack/harvest", json={"orchard": body, "varieties": ["red"], "die": 1})
        assert refused.status_code == 400, (where, refused.get_json())


#: Input errors about the shape of a request; a schema-valid request must never get one.
SHAPE_ERRORS = {"invalid_input", "invalid_json", "unsupported_media_type"}


@schemathesis.check
def rejects_valid_shapes_only_for_game_rules(ctx, response, case):
    """A schema-valid request is accepted, or refused (400) only for a game rule that JSON
    Schema cannot state (deck copies across players, a value the colour lacks, a name
    used twice), with that rule's own error code."""
    if case.meta is None or not case.meta.generation.mode.is_positive:
        return None
    if response.status_code >= 300:
        assert response.status_code == 400, f"valid request answered {response.status_code}"
        code = response.json()["error"]["code"]
        assert code not in SHAPE_ERRORS, f"valid request refused as {code}: {response.text}"
    return None


#: Examples per operation: 60 in the normal run; benchmarks/fuzz_long.sh asks for more.
EXAMPLES = int(os.environ.get("CONTRACT_EXAMPLES", "60"))


@pytest.mark.slow  # fuzzing: 60 examples per operation (docs/development.md)
@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
def test_contract(case):
    """Schemathesis, all checks: no server error, every response matches the spec, invalid
    requests refused; valid ones accepted or refused only by a game rule (see above)."""
    case.call_and_validate(additional_checks=[rejects_valid_shapes_only_for_game_rules])
