# Fieldbook: a small runtime image, non-root, data directory as a volume, health-checked.
FROM swift:6.1-bookworm AS build
# libpq's and libcurl's headers give the types of the tables they are called through (CPostgres.h, CCurl.h); the
# libraries themselves are opened when first needed, so the runtime image needs libpq5 only for a PostgreSQL hub.
RUN apt-get update && apt-get install -y --no-install-recommends libmicrohttpd-dev libsqlite3-dev zlib1g-dev libvips-dev libpq-dev \
    libcurl4-openssl-dev pkg-config python3 python3-pip \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY scripts ./scripts
RUN bash scripts/install-basemap.sh /src/tiles
COPY Package.swift ./
COPY Sources ./Sources
COPY Tests ./Tests
RUN swift build -c release --product fieldbook --static-swift-stdlib

FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends libmicrohttpd12 libsqlite3-0 zlib1g libvips42 libpq5 curl ca-certificates \
    libjs-leaflet libjs-leaflet.markercluster \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --home-dir /var/lib/fieldbook --create-home fieldbook \
    && mkdir -p /var/lib/fieldbook/data && chown fieldbook:fieldbook /var/lib/fieldbook/data
COPY --from=build /src/.build/release/fieldbook /usr/local/bin/fieldbook
COPY templates /opt/fieldbook/templates
COPY Public /opt/fieldbook/Public
COPY --from=build /src/tiles /opt/fieldbook/tiles
USER fieldbook
ENV FIELDBOOK_HOST=0.0.0.0 FIELDBOOK_PORT=8080 FIELDBOOK_DATA=/var/lib/fieldbook/data FIELDBOOK_RESOURCES=/opt/fieldbook
VOLUME ["/var/lib/fieldbook/data"]
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=3s CMD curl -fsS http://127.0.0.1:8080/api/v1/health || exit 1
ENTRYPOINT ["fieldbook"]
CMD ["serve"]
