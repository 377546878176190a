#!/usr/bin/env bash
# Builds Tableside for the Raspberry Pi (aarch64) on a Debian 12 x86-64 machine, packages it as
# an arm64 .deb, and runs the arm64 test binaries of cards, firmware-bridge and hardware under
# qemu. docs/raspberry-pi.md explains what it makes.
#
# The tests run by default in a full-system arm64 VM (scripts/arm64-tests-qemu-system.sh:
# qemu-system-aarch64, Debian's arm64 kernel, a busybox initramfs); all of them pass there.
# --qemu-user runs them with qemu user mode instead (faster, no VM), through the arm64 dynamic
# loader because qemu-user livelocks in threaded binaries started through PT_INTERP here; the
# pseudo-terminal tests (firmware-bridge's e2e_pty) fail that way, qemu-user lacks TCGETS2.
#
# It installs what a fresh machine lacks (root, or sudo): the arm64 architecture in dpkg, Debian's
# newer Rust toolchain (rustc-web, cargo-web: 1.96) with the arm64 standard library, the aarch64
# GCC linker and libc, libclang (bindgen for the camera's V4L2 bindings) and qemu-user-static.
# Debian's toolchain is called explicitly (/usr/bin/cargo, RUSTC=/usr/bin/rustc) so a rustup
# toolchain on PATH is not used for the cross build.
#
# Usage: scripts/cross-build-arm64.sh [--no-install] [--skip-tests | --tests-only] [--qemu-user]
# Output: target/aarch64/deb/tableside_<version>_arm64.deb
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
install=1
tests=1
package=1
runner=system
for arg in "$@"; do
    case $arg in
        --no-install) install=0 ;;
        --skip-tests) tests=0 ;;
        --tests-only) package=0 ;;
        --qemu-user) runner=user ;;
        --qemu-system) runner=system ;;
        *) echo "cross-build-arm64: unknown argument $arg" >&2; exit 2 ;;
    esac
done
target=aarch64-unknown-linux-gnu
out="$root/target/aarch64"
sudo=""
[[ $(id -u) -eq 0 ]] || sudo=sudo

if [[ $install -eq 1 ]]; then
    if ! dpkg --print-foreign-architectures | grep -qx arm64; then
        $sudo dpkg --add-architecture arm64
    fi
    need=()
    for pkg in rustc-web cargo-web libstd-rust-web-dev:arm64 gcc-aarch64-linux-gnu \
        libc6-dev-arm64-cross libclang1-14 libclang-dev dpkg-dev file; do
        dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg")
    done
    if [[ ${#need[@]} -gt 0 ]]; then
        $sudo apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}"
    fi
    # qemu-user (only for --qemu-user): 10.0 from bookworm-backports. Neither 7.2 nor 10.0 runs
    # a threaded arm64 binary started the usual way here (see the test step below).
    qemu_major=$(qemu-aarch64-static --version 2>/dev/null | sed -n 's/.*version \([0-9]*\).*/\1/p' | head -1)
    if [[ ${qemu_major:-0} -lt 10 ]]; then
        if ! grep -rqs bookworm-backports /etc/apt/sources.list /etc/apt/sources.list.d/; then
            echo 'deb http://deb.debian.org/debian bookworm-backports main' \
                | $sudo tee /etc/apt/sources.list.d/bookworm-backports.list >/dev/null
        fi
        $sudo apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
            -t bookworm-backports qemu-user-static
    fi
fi

cargo=/usr/bin/cargo
export RUSTC=/usr/bin/rustc
[[ -x $cargo && -x $RUSTC ]] || { echo "cross-build-arm64: Debian's cargo-web/rustc-web are missing" >&2; exit 1; }
"$RUSTC" --print target-libdir --target "$target" >/dev/null \
    || { echo "cross-build-arm64: no arm64 standard library (libstd-rust-web-dev:arm64)" >&2; exit 1; }

export CARGO_TARGET_DIR="$out"
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc
# qemu-user livelocks (spins without syscalls) in any arm64 binary that starts a thread when it
# loads the binary and its PT_INTERP itself (qemu-aarch64-static -L /usr/aarch64-linux-gnu BIN,
# measured with 7.2 and 10.0 on a 6.18 kernel); started as the loader's argument it runs them.
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER="qemu-aarch64-static /usr/aarch64-linux-gnu/lib/ld-linux-aarch64.so.1 --library-path /usr/aarch64-linux-gnu/lib"
export CC_aarch64_unknown_linux_gnu=aarch64-linux-gnu-gcc
export AR_aarch64_unknown_linux_gnu=aarch64-linux-gnu-ar
export PKG_CONFIG_ALLOW_CROSS=1
# bindgen (the camera's V4L2 bindings) must parse the arm64 headers, not the host's.
export BINDGEN_EXTRA_CLANG_ARGS_aarch64_unknown_linux_gnu="--target=aarch64-linux-gnu --sysroot=/usr/aarch64-linux-gnu -I/usr/aarch64-linux-gnu/include"
[[ -n ${LIBCLANG_PATH:-} ]] || export LIBCLANG_PATH=/usr/lib/llvm-14/lib

cd "$root"
if [[ $package -eq 1 ]]; then
    echo "cross-build-arm64: building tableside (release, features gpio + camera) for $target"
    "$cargo" build --release --locked --target "$target" -p tableside --features hardware/gpio,hardware/camera
    bin="$out/$target/release/tableside"
    file "$bin"
    file "$bin" | grep -q "ARM aarch64" || { echo "cross-build-arm64: $bin is not an aarch64 binary" >&2; exit 1; }

    version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -1)
    pkg="$out/deb/tableside_${version}_arm64"
    rm -rf "$pkg"
    install -D -m 0755 "$bin" "$pkg/usr/bin/tableside"
    install -D -m 0644 packaging/systemd/tableside-kiosk.service "$pkg/lib/systemd/system/tableside-kiosk.service"
    install -D -m 0644 packaging/tableside.toml "$pkg/etc/tableside/tableside.toml"
    install -D -m 0644 docs/raspberry-pi.md "$pkg/usr/share/doc/tableside/raspberry-pi.md"
    install -D -m 0644 app/assets/fonts/OFL.txt "$pkg/usr/share/doc/tableside/OFL-NotoSansCJK.txt"
    install -d "$pkg/DEBIAN"
    sed -e "s/@VERSION@/$version/" -e "s/@ARCH@/arm64/" packaging/debian/control.in > "$pkg/DEBIAN/control"
    echo "Installed-Size: $(du -sk "$pkg" | cut -f1)" >> "$pkg/DEBIAN/control"
    echo /etc/tableside/tableside.toml > "$pkg/DEBIAN/conffiles"
    install -m 0755 packaging/debian/postinst packaging/debian/prerm "$pkg/DEBIAN/"
    dpkg-deb --root-owner-group --build "$pkg" "$pkg.deb" >/dev/null
    dpkg-deb --info "$pkg.deb" | sed -n '/Package:/,/Depends:/p'
    echo "cross-build-arm64: wrote $pkg.deb"
fi

if [[ $tests -eq 1 ]]; then
    if [[ $runner == system ]]; then
        echo "cross-build-arm64: running the arm64 tests of cards, firmware-bridge and hardware in a qemu-system-aarch64 VM"
        no_install=()
        [[ $install -eq 1 ]] || no_install=(--no-install)
        "$root/scripts/arm64-tests-qemu-system.sh" "${no_install[@]}"
    else
        echo "cross-build-arm64: running the arm64 tests of cards, firmware-bridge and hardware under qemu-user"
        "$cargo" test --locked --target "$target" -p cards -p firmware-bridge -p hardware --lib --tests
    fi
fi
