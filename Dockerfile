# Fieldbook: a small runtime image, non-root, data directory as a volume, health-checked.
# Built with the toolchain the project is compiled with (swift --version: 6.3.1). Debian's packages are pinned to
# bookworm's versions: tests/install/test_container.py installs this file's runtime packages, as written here, into a
# fresh Debian 12 root and serves a page from it, so a pin Debian has since replaced fails there first.
FROM swift:6.3.1-bookworm AS build
# libpq's and libcurl's headers give the types of the tables they are called through (CPostgres.h, CCurl.h); the
# libraries themselves are opened when first needed, so the runtime image needs libpq5 only for a PostgreSQL hub.
RUN apt-get update && apt-get install -y --no-install-recommends \
    libmicrohttpd-dev=0.9.75-6 libsqlite3-dev=3.40.1-2+deb12u2 zlib1g-dev=1:1.2.13.dfsg-1 libvips-dev=8.14.1-3+deb12u3 \
    libpq-dev=15.18-0+deb12u1 libcurl4-openssl-dev=7.88.1-10+deb12u15 pkg-config=1.8.1-1 python3=3.11.2-1+b1 \
    python3-pip=23.0.1+dfsg-1 \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY scripts ./scripts
RUN bash scripts/install-basemap.sh /src/tiles
COPY Package.swift ./
COPY Sources ./Sources
COPY Tests ./Tests
# As `make release` builds it (the Makefile says why), but for the commit stamp: the image has no .git, so
# `fieldbook --version` says "commit unknown".
RUN swift build -c release --product fieldbook --static-swift-stdlib --disable-local-rpath -Xlinker -z -Xlinker now

FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends \
    libmicrohttpd12=0.9.75-6 libsqlite3-0=3.40.1-2+deb12u2 zlib1g=1:1.2.13.dfsg-1 libvips42=8.14.1-3+deb12u3 \
    libqrencode4=4.1.1-1 libgettextpo0=0.21-12 libpq5=15.18-0+deb12u1 curl=7.88.1-10+deb12u15 ca-certificates=20230311+deb12u1 \
    libjs-leaflet=1.7.1~dfsg-7 libjs-leaflet.markercluster=1.5.3~dfsg-4 \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --user-group --home-dir /var/lib/fieldbook --create-home fieldbook \
    && mkdir -p /var/lib/fieldbook/data && chown 10001:10001 /var/lib/fieldbook/data
COPY --from=build /src/.build/release/fieldbook /usr/local/bin/fieldbook
COPY templates /opt/fieldbook/templates
COPY Public /opt/fieldbook/Public
COPY translations /opt/fieldbook/translations
COPY --from=build /src/tiles /opt/fieldbook/tiles
USER 10001:10001
# A container sees neither the host's names nor its addresses, so Fieldbook's own certificate could not name them:
# TLS here is an organization's certificate (FIELDBOOK_TLS_CERT) or a proxy's.
ENV FIELDBOOK_HOST=0.0.0.0 FIELDBOOK_NO_TLS=true FIELDBOOK_PORT=8080 FIELDBOOK_DATA=/var/lib/fieldbook/data FIELDBOOK_RESOURCES=/opt/fieldbook
VOLUME ["/var/lib/fieldbook/data"]
EXPOSE 8080
# Asks the port the container is configured with (docker run -e FIELDBOOK_PORT=...), over HTTPS when it serves TLS.
HEALTHCHECK --interval=30s --timeout=3s CMD ["/bin/sh", "-c", "scheme=http; [ -z \"$FIELDBOOK_TLS_CERT\" ] || scheme=https; curl -fsSk \"$scheme://127.0.0.1:$FIELDBOOK_PORT/api/v1/health\""]
ENTRYPOINT ["fieldbook"]
CMD ["serve"]
