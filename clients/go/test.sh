#!/usr/bin/env bash
# Builds the Go example (src/chime/tea) and runs its test against a real chimed in a temporary
# directory, offline: Debian's Go in GOPATH mode, grpc-go and protobuf from /usr/share/gocode.
# Skipped, saying so, where Go or those packages are absent. chimed comes from $CHIME_BIN_DIR
# (default <repo>/.build/debug). GO_TEST_TIMEOUT bounds the whole run (default 180s).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
gocode=/usr/share/gocode
if ! command -v go >/dev/null 2>&1; then
  echo "go: skipped: no Go toolchain (apt-get install golang-go golang-google-grpc-dev, or run scripts/install-deps.sh)"
  exit 0
fi
if [ ! -d "$gocode/src/google.golang.org/grpc" ] || [ ! -d "$gocode/src/google.golang.org/genproto/googleapis/rpc/errdetails" ]; then
  echo "go: skipped: no grpc-go under $gocode (apt-get install golang-google-grpc-dev golang-google-genproto-dev, or run scripts/install-deps.sh)"
  exit 0
fi
export GO111MODULE=off GOFLAGS= GOPATH="$here:$gocode"
# Go's build cache lives under $HOME; without one (some CI environments) use a temp dir.
case "$(go env GOCACHE 2>/dev/null)" in
  "" | off) export GOCACHE="${TMPDIR:-/tmp}/chime-go-build-cache" ;;
esac
cd "$here"
go vet chime/tea
go test -count=1 -timeout "${GO_TEST_TIMEOUT:-180s}" -v chime/tea
