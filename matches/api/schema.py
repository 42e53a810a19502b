"""The OpenAPI 3.1 description of the JSON API, served at /api/openapi.json."""

from typing import Any

from matches.record.markup import POST_TEXT_MAX
from rules.engine.actions import ACTIONS, FACINGS

_ROLLS = {
    "type": "array",
    "items": {
        "type": "object",
        "properties": {
            "index": {"type": "integer"},
            "sides": {"type": "integer"},
            "face": {"type": "integer"},
            "purpose": {"type": "string"},
            "event": {"type": "integer"},
        },
    },
}
_ID = {
    "name": "id",
    "in": "path",
    "required": True,
    "description": "The match's number (anything else under /api/ is a JSON 404).",
    "schema": {"type": "integer", "minimum": 1},
}
_REF = "#/components/schemas/"


_ERRORS = {
    400: "malformed, bad_text (a NUL, a lone surrogate or bytes not UTF-8 anywhere in the "
    "request), or refused by the rules: too_far, path_illegal, blitz_used, choice_illegal...",
    401: "not_authenticated, bad_token, token_expired",
    403: "not_your_player, not_captain, csrf_failed",
    404: "no_match (also a private match you may not see), no_route",
    405: "method_not_allowed; the Allow header names the method",
    409: "decision_pending, no_decision_pending, wrong_decision, version_conflict, "
    "not_in_play, not_your_turn, wrong_phase",
}


def _errors(*statuses: int) -> dict[str, Any]:
    return {
        str(status): {
            "description": _ERRORS[status],
            "content": {"application/json": {"schema": {"$ref": _REF + "Error"}}},
        }
        for status in statuses
    }


def _json(schema: str, description: str) -> dict[str, Any]:
    return {
        "description": description,
        "content": {"application/json": {"schema": {"$ref": _REF + schema}}},
    }


_WRITE = {
    "idempotency_key": {
        "type": "string",
        "maxLength": 64,
        "description": "The same key sent again by the same user is answered with what the "
        "first request did (status 200, replayed true) and changes nothing.",
    },
    "version": {
        "type": "integer",
        "minimum": 0,
        "description": "Apply only if the match is at this version (else 409 version_conflict).",
    },
}

SCHEMA: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {
        "title": "bbweb match API",
        "version": "1",
        "description": "Read a match and its events, declare actions and answer decisions. "
        "The state, declaration and decision JSON are those of SCENARIOS.md. Authenticate "
        "with a session (CSRF applies to POST) or with the API token of your profile page "
        "(/accounts/profile/) in `Authorization: Bearer <token>`. A private match is "
        "readable by its coaches and GM only; to others it does not exist (404).",
    },
    "security": [{"token": []}, {"session": []}, {}],
    "paths": {
        "/api/openapi.json": {
            "get": {
                "operationId": "openapi",
                "summary": "This description",
                "security": [{}],
                "responses": {"200": {"description": "OpenAPI 3.1"}},
            }
        },
        "/api/matches/{id}": {
            "get": {
                "operationId": "getMatch",
                "summary": "The match: its state, what is pending, its version",
                "description": (
                    "Answered with an ETag: sent back in If-None-Match, it brings 304 Not "
                    "Modified and no body while the match is as it was."
                ),
                "parameters": [
                    _ID,
                    {
                        "name": "If-None-Match",
                        "in": "header",
                        "required": False,
                        "description": "The ETag of the match as last read.",
                        "schema": {"type": "string"},
                    },
                ],
                "responses": {
                    "200": _json("Match", "The match"),
                    "304": {"description": "Unchanged since the ETag sent"},
                    **_errors(401, 404),
                },
            }
        },
        "/api/matches/{id}/events": {
            "get": {
                "operationId": "listEvents",
                "summary": "The match's events after a number, oldest first, at most 500",
                "parameters": [
                    _ID,
                    {
                        "name": "after",
                        "in": "query",
                        "required": False,
                        "description": "Only the events numbered higher (default 0: all).",
                        "schema": {"type": "integer", "minimum": 0},
                    },
                ],
                "responses": {
                    "200": _json("EventPage", "The events"),
                    **_errors(400, 401, 404),
                },
            }
        },
        "/api/matches/{id}/declare": {
            "post": {
                "operationId": "declare",
                "summary": "Declare one action (the whole of it)",
                "parameters": [_ID],
                "requestBody": {
                    "required": True,
                    "content": {"application/json": {"schema": {"$ref": _REF + "Declare"}}},
                },
                "responses": {
                    "200": _json("Outcome", "Already done: the same idempotency key"),
                    "201": _json("Outcome", "Declared; the match may await a decision"),
                    **_errors(400, 401, 403, 404, 409),
                },
            }
        },
        "/api/matches/{id}/decide": {
            "post": {
                "operationId": "decide",
                "summary": "Answer the pending decision",
                "parameters": [_ID],
                "requestBody": {
                    "required": True,
                    "content": {"application/json": {"schema": {"$ref": _REF + "Decide"}}},
                },
                "responses": {
                    "200": _json("Outcome", "Already done: the same idempotency key"),
                    "201": _json("Outcome", "Answered"),
                    **_errors(400, 401, 403, 404, 409),
                },
            }
        },
        "/api/matches/{id}/options": {
            "get": {
                "operationId": "listOptions",
                "summary": "What you may declare now: your players able to act and their "
                "actions; with player, its squares (safest path and chance) and targets",
                "parameters": [
                    _ID,
                    {
                        "name": "side",
                        "in": "query",
                        "required": False,
                        "description": "Which of your sides asks (default: the first of your "
                        "sides in the team whose turn it is).",
                        "schema": {"enum": ["captain", "rival"]},
                    },
                    {
                        "name": "player",
                        "in": "query",
                        "required": False,
                        "description": "One of the players listed: its squares and targets.",
                        "schema": {"type": "string"},
                    },
                ],
                "responses": {
                    "200": _json("Options", "The options"),
                    **_errors(401, 403, 404, 409),
                },
            }
        },
        "/matches/{id}/export.json": {
            "get": {
                "operationId": "exportMatch",
                "summary": "The whole match, with every roll (verify with manage.py "
                "verify_match FILE once the seed is revealed)",
                "parameters": [_ID],
                "responses": {"200": _json("Export", "The match"), **_errors(401, 404)},
            }
        },
    },
    "components": {
        "securitySchemes": {
            "token": {"type": "http", "scheme": "bearer"},
            "session": {"type": "apiKey", "in": "cookie", "name": "sessionid"},
        },
        "schemas": {
            "Error": {
                "type": "object",
                "required": ["error", "message"],
                "properties": {
                    "error": {"type": "string", "description": "A stable code"},
                    "message": {"type": "string"},
                },
            },
            "Match": {
                "type": "object",
                "required": ["id", "status", "version", "pending", "state"],
                "properties": {
                    "id": {"type": "integer"},
                    "status": {
                        "enum": ["scheduled", "pre_match", "in_play", "post_match", "finished"]
                    },
                    "version": {"type": "integer", "description": "Goes up with every change"},
                    "is_public": {"type": "boolean"},
                    "home": {"$ref": _REF + "TeamRef"},
                    "away": {"$ref": _REF + "TeamRef"},
                    "you": {
                        "type": "array",
                        "items": {"type": "string"},
                        "description": "The TEAM:SIDE roles you coach (home:captain...)",
                    },
                    "turn_deadline_at": {"type": ["string", "null"], "format": "date-time"},
                    "dice": {
                        "type": "object",
                        "properties": {
                            "commitment": {"type": "string", "description": "SHA-256 of the seed"},
                            "seed": {"type": ["string", "null"], "description": "Once over"},
                        },
                    },
                    "last_event": {"type": "integer"},
                    "pending": {"oneOf": [{"type": "null"}, {"$ref": _REF + "Pending"}]},
                    "state": {
                        "type": "object",
                        "description": "The state JSON of SCENARIOS.md",
                    },
                },
            },
            "TeamRef": {
                "type": "object",
                "properties": {"id": {"type": "integer"}, "name": {"type": "string"}},
            },
            "Pending": {
                "type": "object",
                "required": ["kind", "to", "options"],
                "properties": {
                    "kind": {"type": "string", "description": "reroll, block_die, push..."},
                    "to": {"type": "string", "description": "The TEAM:SIDE who answers"},
                    "options": {"type": "array"},
                    "default": {"description": "Taken when the deadline passes"},
                    "deadline_at": {"type": ["string", "null"], "format": "date-time"},
                    "events": {
                        "type": "array",
                        "description": "What happened so far (the rolls the decision is about)",
                    },
                },
            },
            "Event": {
                "type": "object",
                "required": ["number", "type", "data", "prev_hash", "hash"],
                "properties": {
                    "number": {"type": "integer"},
                    "type": {"type": "string"},
                    "data": {
                        "type": "object",
                        "description": "A roll's event holds its faces and purpose",
                    },
                    "half": {"type": "integer"},
                    "turn": {"type": "integer"},
                    "post": {"type": ["integer", "null"]},
                    "prev_hash": {"type": "string"},
                    "hash": {
                        "type": "string",
                        "description": "SHA-256 of [prev_hash, number, type, data] as "
                        "compact JSON with sorted keys",
                    },
                    "created_at": {"type": "string", "format": "date-time"},
                },
            },
            "EventPage": {
                "type": "object",
                "properties": {
                    "events": {"type": "array", "items": {"$ref": _REF + "Event"}},
                    "more": {"type": "boolean", "description": "Ask again after the last"},
                },
            },
            "Declare": {
                "type": "object",
                "description": "A declaration of SCENARIOS.md, with optional extras",
                "required": ["action"],
                "properties": {
                    "player": {"type": ["string", "null"]},
                    "action": {"enum": list(ACTIONS)},
                    "path": {"type": "array", "items": {"type": "string"}},
                    "target": {"type": ["string", "null"]},
                    "then": {"type": "array", "items": {"type": "string"}},
                    "throw": {"type": ["string", "null"], "description": "Throw Team-Mate"},
                    "target2": {"type": ["string", "null"], "description": "Multiple Block"},
                    "gaze": {"type": ["string", "null"], "description": "Hypnotic Gaze"},
                    "stab": {"type": "boolean"},
                    "facings": {"type": "array", "items": {"enum": list(FACINGS)}},
                    "placements": {
                        "type": "object",
                        "additionalProperties": {"type": "string"},
                        "description": "setup: {player id: square}",
                    },
                    "side": {
                        "enum": ["captain", "rival"],
                        "description": "Which of your sides posts a declaration naming no "
                        "player (end_turn, setup...)",
                    },
                    "text": {
                        "type": "string",
                        "maxLength": POST_TEXT_MAX,
                        "description": "Markdown shown with the post",
                    },
                    **_WRITE,
                },
            },
            "Decide": {
                "type": "object",
                "required": ["kind", "choice"],
                "properties": {
                    "kind": {
                        "type": "string",
                        "description": "Must be the pending kind (else 409 wrong_decision)",
                    },
                    "choice": {"type": ["string", "integer", "boolean"]},
                    **_WRITE,
                },
            },
            "Options": {
                "type": "object",
                "required": ["actor", "players", "team"],
                "properties": {
                    "actor": {"type": "string", "description": "The TEAM:SIDE the options are for"},
                    "players": {
                        "type": "object",
                        "description": "Each player able to act: its actions (move, block, "
                        "blitz, foul, pass, hand_off, bomb)",
                        "additionalProperties": {"type": "array", "items": {"type": "string"}},
                    },
                    "team": {
                        "type": "array",
                        "items": {"type": "string"},
                        "description": "end_turn, claim_blitz when legal",
                    },
                    "player": {"$ref": _REF + "PlayerOptions"},
                },
            },
            "PlayerOptions": {
                "type": "object",
                "description": "A chance counts every roll on the way (standing up, dodges, "
                "Leap, Going For It, a pick-up), no reroll. Every path and target listed is a "
                "legal declaration.",
                "properties": {
                    "id": {"type": "string"},
                    "actions": {"type": "array", "items": {"type": "string"}},
                    "squares": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "properties": {
                                "square": {"type": "string"},
                                "chance": {"type": "number"},
                                "path": {"type": "array", "items": {"type": "string"}},
                            },
                        },
                    },
                    **{
                        action: {"type": "array", "items": {"$ref": _REF + "Target"}}
                        for action in ("block", "blitz", "foul", "pass", "hand_off")
                    },
                },
            },
            "Target": {
                "type": "object",
                "required": ["player", "square", "path", "chance"],
                "properties": {
                    "player": {"type": "string"},
                    "square": {"type": "string", "description": "Where the path ends"},
                    "path": {
                        "type": "array",
                        "items": {"type": "string"},
                        "description": "The safest path before the action",
                    },
                    "chance": {"type": "number", "description": "Of getting there"},
                    "dice": {"type": "integer", "description": "Block dice"},
                    "chooser": {"enum": ["attacker", "defender"]},
                    "band": {"description": "A pass's range", "type": "string"},
                    "armour": {"type": "number", "description": "A foul breaking the armour"},
                },
            },
            "Outcome": {
                "type": "object",
                "properties": {
                    "post": {"type": "integer", "description": "The thread's post"},
                    "replayed": {"type": "boolean"},
                    "match": {"$ref": _REF + "Match"},
                },
            },
            "Export": {
                "type": "object",
                "properties": {
                    "format": {"const": "bbweb-match/1"},
                    "match": {"type": "object"},
                    "teams": {"type": "object"},
                    "lineup": {"type": "object"},
                    "state": {"type": "object"},
                    "events": {"type": "array", "items": {"$ref": _REF + "Event"}},
                    "posts": {"type": "array"},
                    "dice": {
                        "type": "object",
                        "properties": {
                            "commitment": {"type": "string"},
                            "seed": {"type": ["string", "null"]},
                            "match_id": {"type": "string"},
                            "rolls": _ROLLS,
                            "sequence_rolls": {
                                **_ROLLS,
                                "description": "The pre- and post-match sequence's own "
                                "stream (MATCH_ID:sequence), each roll where the record "
                                "shows it first",
                            },
                        },
                    },
                },
            },
        },
    },
}
