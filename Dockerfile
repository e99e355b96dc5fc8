# The scoring service: the Procfile's command under gunicorn, as a non-root user.
#   docker build -t scoring-api .
#   docker run -p 8000:8000 -e SCORING_RATELIMIT_STORAGE_URI=redis://redis:6379/0 scoring-api
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PORT=8000 \
    WEB_CONCURRENCY=2

WORKDIR /app
# The dependencies exactly as requirements/runtime.txt locks them (hashes checked), in a
# layer of their own: a change to the code alone does not install them again.
COPY requirements/runtime.txt requirements/runtime.txt
RUN pip install --require-hashes -r requirements/runtime.txt
COPY pyproject.toml README.md LICENSE ./
COPY scoring_api ./scoring_api
RUN pip install --no-deps . && useradd --create-home --uid 10001 scoring

USER scoring
EXPOSE 8000

HEALTHCHECK --interval=30s --timeout=3s --start-period=10s --retries=3 \
    CMD python -c "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/healthz' % os.environ.get('PORT', '8000'), timeout=2)"

# The Procfile's web command (tests/test_deployment.py keeps the two the same).
CMD ["sh", "-c", "exec gunicorn -c python:scoring_api.gunicorn_conf --bind 0.0.0.0:${PORT:-8000} --workers ${WEB_CONCURRENCY:-2} 'scoring_api:create_app()'"]
