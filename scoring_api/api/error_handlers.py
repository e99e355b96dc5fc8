"""The HTTP layer's error handlers: every refusal in the service's one error shape.

HTTP errors keep their status and headers (``Allow`` on 405) by starting from
``e.get_response()`` (Flask's error docs); anything unexpected is a 500 in the same shape,
logged without the request body.
"""

from __future__ import annotations

import json

from flask import Flask, current_app, request
from marshmallow import ValidationError
from werkzeug.exceptions import HTTPException

from ..error_shape import ApiError, api_error_body, error_document, validation_error_body
from ..i18n import DEFAULT_LANG, LANGS, t


def response_lang() -> str:
    """The language of the current request's texts (a bad ``?lang`` falls back here)."""
    lang = request.args.get("lang", DEFAULT_LANG)
    return lang if lang in LANGS else DEFAULT_LANG


def _api_error(error: ApiError):
    return api_error_body(error, response_lang()), error.status, error.headers


def _validation_error(error: ValidationError):
    return validation_error_body(error, response_lang()), 400


_HTTP_CODES = {
    404: ("not_found", "errors.not_found"),
    405: ("method_not_allowed", "errors.method_not_allowed"),
    413: ("payload_too_large", "errors.payload_too_large"),
    415: ("unsupported_media_type", "errors.unsupported_media_type"),
}


def _http_error(error: HTTPException):
    response = error.get_response()
    lang = response_lang()
    status = error.code or 500
    code, key = _HTTP_CODES.get(status, ("http_error", "errors.http_error"))
    params = {
        "path": request.path,
        "method": request.method,
        "allowed": ", ".join(sorted(filter(None, map(str.strip, response.headers.get("Allow", "").split(","))))),
        "limit": current_app.config.get("MAX_CONTENT_LENGTH"),
        "mimetype": request.mimetype or "-",
        "status": status,
        "name": error.name,
    }
    body = error_document(code, t(key, lang, **params))
    response.data = json.dumps(body, ensure_ascii=False)
    response.content_type = "application/json"
    return response


def _unexpected(error: Exception):
    current_app.logger.exception("unhandled error on %s %s", request.method, request.path)
    return error_document("internal_error", t("errors.internal_error", response_lang())), 500


def register(app: Flask) -> None:
    app.register_error_handler(ApiError, _api_error)
    app.register_error_handler(ValidationError, _validation_error)
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(Exception, _unexpected)
