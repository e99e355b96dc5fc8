"""A hello-world Flask app: the reference of ``benchmarks/load.py``.

``load.py`` serves it with exactly the service's gunicorn command and settings (the
Procfile's, ``-c python:scoring_api.gunicorn_conf`` included); only the app path differs:
``benchmarks.hello_app:app``. One route answers a GET or a POST with a short JSON body,
without reading what was sent; what a scoring endpoint answers beyond that is the app's
own work (Flask's routing and JSON aside).
"""

from flask import Flask

app = Flask(__name__)
# The gunicorn configuration's hooks read these two from the app they serve
# (scoring_api/gunicorn_conf.py: the send deadline, the Expect: 100-continue check): the
# service's defaults, so that hello-world is served through the same wrapping.
app.config.update(SEND_TIMEOUT=10, MAX_CONTENT_LENGTH=65536)


@app.route("/hello", methods=["GET", "POST"])
def hello() -> dict[str, str]:
    return {"hello": "world"}
