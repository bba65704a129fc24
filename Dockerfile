# syntax=docker/dockerfile:1
#
# webgate as a static binary in a distroless image, running as a non-root
# user. Build:  docker build -t webgate .
# Run:          docker run -p 8788:8788 -e WEBGATE_TOKEN=$(openssl rand -hex 32) \
#                 -v $PWD/deploy/compose/webgate.yaml:/etc/webgate/webgate.yaml:ro webgate
# See docs/operations.md for compose and Kubernetes.

ARG GO_VERSION=1.26

FROM golang:${GO_VERSION}-bookworm AS build
WORKDIR /src
# Modules first, so source edits do not refetch them.
COPY go.mod go.sum ./
# go.mod replaces go-trafilatura with the copy in third_party; loading
# the module graph reads that copy's go.mod.
COPY third_party/go-trafilatura/go.mod third_party/go-trafilatura/
RUN go mod download
COPY . .
ARG VERSION=dev
# CGO off: a static binary that needs no libc in the final image.
RUN CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X github.com/webgate/webgate/internal/cli.Version=${VERSION}" \
      -o /out/webgate ./cmd/webgate

# The "chromium" target: webgate with Debian's Chromium, so that pages
# which build their content with JavaScript are rendered (fetch.render,
# docs/fetch.md). Build: docker build --target chromium -t webgate:chromium .
# It needs about 400 MiB more memory than the default image while a page
# renders (docs/operations.md, "Memory"). Docker's default seccomp profile
# forbids the user namespaces Chromium's sandbox needs: run it with
# fetch.browser.no_sandbox: true, or allow them.
FROM debian:bookworm-slim AS chromium
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium ca-certificates \
 && rm -rf /var/lib/apt/lists/*
COPY --from=build /out/webgate /usr/local/bin/webgate
USER 65532:65532
# Chromium writes its profile and shared memory files under the
# temporary directory (the Kubernetes manifests mount /tmp writable).
ENV WEBGATE_CONFIG=/etc/webgate/webgate.yaml HOME=/tmp
EXPOSE 8788
HEALTHCHECK --interval=10s --timeout=4s --start-period=5s --retries=3 \
  CMD ["/usr/local/bin/webgate", "healthcheck", "--url", "http://127.0.0.1:8788/healthz"]
ENTRYPOINT ["/usr/local/bin/webgate"]
CMD ["serve", "--listen", "0.0.0.0:8788"]

# The default target (last): no browser; pages that need one fail with a
# message saying so.
# distroless/static: CA certificates and tzdata, no shell, and the
# "nonroot" user (uid 65532).
FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/webgate /webgate
USER 65532:65532
ENV WEBGATE_CONFIG=/etc/webgate/webgate.yaml
EXPOSE 8788
# No shell or curl in the image: the binary probes itself.
HEALTHCHECK --interval=10s --timeout=4s --start-period=5s --retries=3 \
  CMD ["/webgate", "healthcheck", "--url", "http://127.0.0.1:8788/healthz"]
ENTRYPOINT ["/webgate"]
# Inside a container the gateway must listen beyond loopback; the
# configuration must then set gateway keys (server.auth_tokens or
# auth.keys).
CMD ["serve", "--listen", "0.0.0.0:8788"]
