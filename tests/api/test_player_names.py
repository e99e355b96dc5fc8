"""Player names as players read them, in every request that names players (docs/rules/
README.md, "Player names"): look-alike spellings are one name (a second one is refused
at its field), invisible characters and blank names are refused with a sentence from the
catalogue, and the answers show the name as read (NFKC, trimmed)."""

import pytest

RED = {"color": "red", "value": 1}


def apero(*names):
    return "/api/v1/apero/score", {"players": [{"name": n, "cards": [RED]} for n in names]}


def apero_pick(*names):
    players = [{"name": n, "cards": []} for n in names]
    return "/api/v1/apero/pick", {"players": players, "me": names[0], "table": [RED]}


def fairy_score(*names):
    players = [{"name": n, "mood": 3, "eliminated": False, "treasures": []} for n in names]
    return "/api/v1/fairy-black-box/score", {"players": players}


def fairy_next(*names):
    return "/api/v1/fairy-black-box/next-player", {"players": [{"name": n, "treasure_count": 1} for n in names]}


def tool(request):
    def build(*names):
        path, body = request(*names)
        return "/api/v1/tools/" + {"/api/v1/apero/score": "score_apero"}[path], body

    return build


#: Every request of every game whose schema names players (Pedro names teams NS and EW,
#: Applejack no player), and a tool call taking the same road.
REQUESTS = {
    "apero score": apero,
    "apero pick": apero_pick,
    "fairy score": fairy_score,
    "fairy next player": fairy_next,
    "tool score_apero": tool(apero),
}

#: Spellings a player reads as "Aki" (or "が").
LOOK_ALIKES = {
    "trailing spaces": ("Aki", "Aki  "),
    "leading ideographic space": ("Aki", "\u3000Aki"),
    "no-break spaces": ("Aki", "\u00a0Aki\u00a0"),
    "full width": ("Aki", "Ａｋｉ"),
    "NFC and NFD": ("\u304c", "\u304b\u3099"),
    "half-width kana": ("アキ", "ｱｷ"),
}


@pytest.mark.parametrize("pair", list(LOOK_ALIKES))
@pytest.mark.parametrize("request_name", list(REQUESTS))
def test_look_alike_names_are_one_name(client, request_name, pair):
    first, second = LOOK_ALIKES[pair]
    path, body = REQUESTS[request_name](first, second)
    response = client.post(f"{path}?lang=en", json=body)
    assert response.status_code == 400, response.get_json()
    error = response.get_json()["error"]
    assert error["code"] == "duplicate_name"
    assert list(error["details"]) == ["players[1].name"]
    assert f'"{first}" is used twice' in error["details"]["players[1].name"][0]


@pytest.mark.parametrize("request_name", list(REQUESTS))
def test_a_zero_width_space_is_refused_naming_the_field_and_the_character(client, request_name):
    path, body = REQUESTS[request_name]("Aki", "Aki\u200b")
    for lang, sentence in (
        ("en", "The player name contains an invisible character (U+200B); delete it and type the name again."),
        ("ja", "プレイヤー名に見えない文字（U+200B）が入っています。消してから名前を入力し直してください。"),
    ):
        response = client.post(f"{path}?lang={lang}", json=body)
        assert response.status_code == 400
        assert response.get_json()["error"]["details"] == {"players[1].name": [sentence]}


INVISIBLE = {
    "zero width non-joiner": ("A\u200cki", "U+200C"),
    "zero width joiner in an emoji": ("👨\u200d👩\u200d👧", "U+200D"),
    "left-to-right mark": ("\u200eAki", "U+200E"),
    "word joiner": ("Aki\u2060", "U+2060"),
    "byte order mark": ("\ufeffAki", "U+FEFF"),
    "soft hyphen": ("A\u00adki", "U+00AD"),
    "Hangul filler": ("\u3164", "U+3164"),
    "Braille blank": ("Aki\u2800", "U+2800"),
    "combining grapheme joiner": ("Aki\u034f", "U+034F"),
    "tag character": ("Aki\U000e0061", "U+E0061"),
    "line separator": ("A\u2028ki", "U+2028"),
}


@pytest.mark.parametrize("case", list(INVISIBLE))
def test_invisible_characters_are_refused(client, case):
    name, shown = INVISIBLE[case]
    path, body = apero("Ben", name)
    response = client.post(f"{path}?lang=en", json=body)
    assert response.status_code == 400
    [reason] = response.get_json()["error"]["details"]["players[1].name"]
    assert reason == f"The player name contains an invisible character ({shown}); delete it and type the name again."


@pytest.mark.parametrize(
    "name", ["Aki\u0000", "\u0007", "Aki\n", "Aki\t", "A\u0085", "evil\u202eeman", "\u2066x\u2069"]
)
def test_control_and_direction_characters_are_still_refused_as_before(client, name):
    for lang, sentence in (
        ("en", "Contains a control or text-direction character."),
        ("ja", "制御文字や文字の向きを変える文字は使えません。"),
    ):
        path, body = fairy_score("Ben", name)
        details = client.post(f"{path}?lang={lang}", json=body).get_json()["error"]["details"]
        assert details == {"players[1].name": [sentence]}


@pytest.mark.parametrize("name", [" ", "   ", "\u3000", "\u00a0" * 40, " \u2003 "])
@pytest.mark.parametrize("request_name", list(REQUESTS))
def test_blank_names_are_refused(client, request_name, name):
    path, body = REQUESTS[request_name]("Ben", name)
    for lang, sentence in (
        ("en", "The player name is only spaces; enter a name."),
        ("ja", "プレイヤー名が空白だけです。名前を入力してください。"),
    ):
        response = client.post(f"{path}?lang={lang}", json=body)
        assert response.status_code == 400
        assert response.get_json()["error"]["details"] == {"players[1].name": [sentence]}


def test_an_empty_name_is_refused_by_its_length(client):
    path, body = apero("Ben", "")
    details = client.post(f"{path}?lang=en", json=body).get_json()["error"]["details"]
    assert details == {"players[1].name": ["Use between 1 and 40 characters."]}


def test_answers_show_the_name_as_read(client):
    path, body = apero("\u304b\u3099", "Ａｋｉ ")
    answer = client.post(path, json=body).get_json()
    assert [p["name"] for p in answer["players"]] == ["\u304c", "Aki"]
    assert answer["winners"] == ["\u304c", "Aki"]
    assert answer["players"][0]["explanation"].startswith("\u304cさんの合計")
    assert "\u3099" not in str(answer)


def test_fairy_sentences_show_the_trimmed_name(client):
    path, body = fairy_score("Ben ", "Aki")
    answer = client.post(path, json=body).get_json()
    assert answer["players"][0]["name"] == "Ben"
    assert answer["players"][0]["explanation"].startswith("Benさん")  # no space before さん
    next_players = client.post("/api/v1/fairy-black-box/next-player", json=fairy_next("Ｂｅｎ", "Aki ")[1]).get_json()
    assert next_players["next_players"] == ["Ben", "Aki"]


def test_apero_pick_finds_me_among_the_players_as_read(client):
    players = [{"name": "Aki ", "cards": []}, {"name": "Ben", "cards": []}]
    body = {"players": players, "me": "Ａｋｉ", "table": [RED]}
    answer = client.post("/api/v1/apero/pick", json=body).get_json()
    assert answer["me"] == "Aki"
    assert [gain["name"] for gain in answer["options"][0]["gains"]] == ["Ben"]
