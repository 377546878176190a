#!/usr/bin/env bash
# Runs the arm64 test binaries of cards, firmware-bridge and hardware in a full-system arm64 VM
# (qemu-system-aarch64 -M virt, Debian's arm64 kernel, a busybox initramfs), on a Debian 12 x86-64
# machine. docs/raspberry-pi.md says why (qemu user mode cannot run all of them).
#
# 1. installs what is missing (root or sudo): qemu-system-arm, cpio, jq; downloads (does not
#    install) Debian's arm64 kernel and busybox-static:arm64 into target/aarch64/vm/debs and
#    unpacks them with dpkg-deb -x;
# 2. builds the test binaries (cargo test --no-run, the same toolchain and env as
#    scripts/cross-build-arm64.sh; debug profile unless --release);
# 3. packs an initramfs: busybox, /init, the dynamic loader and the libraries the binaries need,
#    the binaries, the data files the tests read at run time at their absolute paths;
# 4. boots it, prints the console, and exits 0 only if every test binary passed.
#
# Usage: scripts/arm64-tests-qemu-system.sh [--no-install] [--no-build] [--release]
#                                           [--timeout SECONDS] [--smp N] [--filter NAME]
#   --no-build   reuse the test binaries listed in target/aarch64/vm/tests.list
#   --filter     only run the binaries whose name contains NAME (for debugging)
# Output: target/aarch64/vm/console.log (the VM's console), target/aarch64/vm/initramfs.gz
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
install=1
build=1
profile=debug
timeout_s=3600
smp=2
filter=""
while [[ $# -gt 0 ]]; do
    case $1 in
        --no-install) install=0 ;;
        --no-build) build=0 ;;
        --release) profile=release ;;
        --timeout) timeout_s=$2; shift ;;
        --smp) smp=$2; shift ;;
        --filter) filter=$2; shift ;;
        *) echo "arm64-tests-qemu-system: unknown argument $1" >&2; exit 2 ;;
    esac
    shift
done
target=aarch64-unknown-linux-gnu
out="$root/target/aarch64"
vm="$out/vm"
sysroot=/usr/aarch64-linux-gnu
sudo=""
[[ $(id -u) -eq 0 ]] || sudo=sudo
t0=$(date +%s)
say() { echo "arm64-tests-qemu-system: $*"; }
mkdir -p "$vm/debs"

# --- 1. host tools, arm64 kernel and busybox -------------------------------------------------
if [[ $install -eq 1 ]]; then
    if ! dpkg --print-foreign-architectures | grep -qx arm64; then
        $sudo dpkg --add-architecture arm64
        $sudo apt-get update -qq
    fi
    need=()
    for pkg in cpio jq gcc-aarch64-linux-gnu libc6-dev-arm64-cross; do
        dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg")
    done
    if [[ ${#need[@]} -gt 0 ]]; then
        $sudo apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}"
    fi
    if ! command -v qemu-system-aarch64 >/dev/null; then
        # bookworm's 7.2 is enough, but it cannot be installed next to qemu-utils/qemu-user 10.0
        # from bookworm-backports (which scripts/cross-build-arm64.sh installs); then take 10.0.
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
            qemu-system-arm \
        || DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
            -t bookworm-backports qemu-system-arm
    fi
fi
command -v qemu-system-aarch64 >/dev/null || { say "qemu-system-aarch64 is missing (qemu-system-arm)"; exit 1; }
command -v cpio >/dev/null || { say "cpio is missing"; exit 1; }
command -v jq >/dev/null || { say "jq is missing"; exit 1; }

kernel_pkg=$(apt-cache depends linux-image-arm64:arm64 2>/dev/null \
    | sed -n 's/^ *Depends: \(linux-image-[0-9][^:]*-arm64\).*/\1/p' | head -1)
[[ -n $kernel_pkg ]] || { say "cannot resolve linux-image-arm64:arm64 (is arm64 added to dpkg and apt updated?)"; exit 1; }
(
    cd "$vm/debs"
    ls "${kernel_pkg}"_*_arm64.deb >/dev/null 2>&1 || apt-get download "$kernel_pkg:arm64"
    ls busybox-static_*_arm64.deb >/dev/null 2>&1 || apt-get download busybox-static:arm64
) 2> >(grep -v 'Download is performed unsandboxed' >&2)
if [[ ! -f "$vm/kernel/.from-$kernel_pkg" ]]; then
    rm -rf "$vm/kernel" && mkdir -p "$vm/kernel"
    dpkg-deb -x "$(ls "$vm/debs/${kernel_pkg}"_*_arm64.deb | head -1)" "$vm/kernel"
    touch "$vm/kernel/.from-$kernel_pkg"
fi
if [[ ! -x "$vm/busybox/bin/busybox" ]]; then
    rm -rf "$vm/busybox" && mkdir -p "$vm/busybox"
    dpkg-deb -x "$(ls "$vm/debs"/busybox-static_*_arm64.deb | head -1)" "$vm/busybox"
fi
vmlinuz=$(ls "$vm/kernel/boot"/vmlinuz-* | head -1)
say "kernel $(basename "$vmlinuz"), $(qemu-system-aarch64 --version | head -1)"

# --- 2. the test binaries ----------------------------------------------------------------------
if [[ $build -eq 1 ]]; then
    export CARGO_TARGET_DIR="$out"
    export RUSTC=/usr/bin/rustc
    export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc
    export CC_aarch64_unknown_linux_gnu=aarch64-linux-gnu-gcc
    export AR_aarch64_unknown_linux_gnu=aarch64-linux-gnu-ar
    export PKG_CONFIG_ALLOW_CROSS=1
    export BINDGEN_EXTRA_CLANG_ARGS_aarch64_unknown_linux_gnu="--target=aarch64-linux-gnu --sysroot=$sysroot -I$sysroot/include"
    [[ -n ${LIBCLANG_PATH:-} ]] || export LIBCLANG_PATH=/usr/lib/llvm-14/lib
    profile_arg=()
    [[ $profile == release ]] && profile_arg=(--release)
    say "building the $profile test binaries of cards, firmware-bridge and hardware"
    (cd "$root" && nice -n 10 /usr/bin/cargo test --no-run --locked --target "$target" "${profile_arg[@]}" \
        -p cards -p firmware-bridge -p hardware --lib --tests --message-format=json) > "$vm/build.json"
    # "<package dir> <kind> <target> <path>": test executables (profile.test) and the bins that
    # integration tests run through CARGO_BIN_EXE_* (needed at the same absolute path in the VM).
    jq -r 'select(.reason == "compiler-artifact" and .executable != null
               and (.profile.test or (.target.kind | index("bin"))))
        | [(.manifest_path | sub("/Cargo.toml$"; "")),
           (if .profile.test then "test" else "bin" end), .target.name, .executable] | @tsv' \
        "$vm/build.json" | sort -u > "$vm/tests.list"
fi
[[ -s "$vm/tests.list" ]] || { say "no test binaries in $vm/tests.list"; exit 1; }

# --- 3. the initramfs --------------------------------------------------------------------------
rfs="$vm/rootfs"
rm -rf "$rfs"
mkdir -p "$rfs"/{bin,lib,proc,sys,dev,tmp,root,tests,etc}
cp "$vm/busybox/bin/busybox" "$rfs/bin/busybox"
for a in sh mount mkdir ln cat grep sed date poweroff sync echo; do ln -s busybox "$rfs/bin/$a"; done
echo "root:x:0:0:root:/root:/bin/sh" > "$rfs/etc/passwd"
echo "root:x:0:" > "$rfs/etc/group"

declare -A seen_lib=()
copy_libs() { # the NEEDED libraries of an ELF file, recursively, into /lib
    local lib path
    for lib in $(aarch64-linux-gnu-readelf -d "$1" 2>/dev/null | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
        [[ -n ${seen_lib[$lib]:-} ]] && continue
        seen_lib[$lib]=1
        path="$sysroot/lib/$lib"
        [[ -e $path ]] || { say "library $lib (of $1) not found in $sysroot/lib"; exit 1; }
        cp -L "$path" "$rfs/lib/$lib"
        copy_libs "$path"
    done
}
interp=$(aarch64-linux-gnu-readelf -l "$(awk -F'\t' '$2 == "test" {print $4; exit}' "$vm/tests.list")" \
    | sed -n 's/.*Requesting program interpreter: \(.*\)\]/\1/p')
mkdir -p "$rfs$(dirname "$interp")"
cp -L "$sysroot/lib/$(basename "$interp")" "$rfs$interp"

n=0
: > "$rfs/tests/list"
while IFS=$'\t' read -r dir kind name exe; do
    copy_libs "$exe"
    if [[ $kind == bin ]]; then
        mkdir -p "$rfs$(dirname "$exe")"
        aarch64-linux-gnu-strip --strip-debug -o "$rfs$exe" "$exe"
        continue
    fi
    [[ -z $filter || $exe == *"$filter"* ]] || continue
    n=$((n + 1))
    id=$(printf '%02d-%s-%s' "$n" "$(basename "$dir")" "$name")
    # Debug info is most of a debug test binary; symbols stay, so backtraces still name functions.
    aarch64-linux-gnu-strip --strip-debug -o "$rfs/tests/$id" "$exe"
    mkdir -p "$rfs$dir"
    printf '%s %s\n' "$id" "$dir" >> "$rfs/tests/list"
done < "$vm/tests.list"
[[ $n -gt 0 ]] || { say "no test binary matches"; exit 1; }

# Files the tests read at run time through env!("CARGO_MANIFEST_DIR") (absolute paths). The
# package directories exist too (created above): cargo runs tests there, so /init does as well.
for p in docs/examples PROTOCOL.md fuzz/seeds cards/data hardware/data; do
    [[ -e "$root/$p" ]] || continue
    mkdir -p "$rfs$root/$(dirname "$p")"
    cp -a "$root/$p" "$rfs$root/$p"
done

cat > "$rfs/init" <<'EOF'
#!/bin/sh
export PATH=/bin HOME=/root TMPDIR=/tmp RUST_BACKTRACE=1
# No C compiler in the VM: firmware-bridge's protocol_doc test compiles PROTOCOL.md's C reference
# code with cc; that check is not arm64-specific and runs in the host's test run.
export SKIP_C_REFERENCE=1
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mkdir -p /dev/pts /dev/shm
mount -t devpts -o gid=5,mode=620,ptmxmode=666 devpts /dev/pts
[ -e /dev/ptmx ] || ln -s pts/ptmx /dev/ptmx
mount -t tmpfs tmpfs /tmp
mount -t tmpfs tmpfs /dev/shm
/bin/busybox --install -s /bin
set -o pipefail
echo "ARM64-TESTS: START $(uname -srm), $(grep -c ^processor /proc/cpuinfo) cpus, $(sed -n 's/MemTotal: *//p' /proc/meminfo)"
pass=0; fail=0; all=$(date +%s)
while read -r id dir; do
    echo "ARM64-TESTS: RUN $id"
    start=$(date +%s)
    cd "$dir"
    CARGO_MANIFEST_DIR="$dir" "/tests/$id" --test-threads=2 2>&1 | tee /tmp/out
    rc=$?
    cd /
    secs=$(( $(date +%s) - start ))
    result=$(grep '^test result:' /tmp/out | tail -1 | sed 's/^test result: [A-Za-z]*\. //; s/; finished in.*//')
    if [ $rc -eq 0 ]; then
        pass=$((pass + 1)); echo "ARM64-TESTS: PASS $id ($result) ${secs}s"
    else
        fail=$((fail + 1)); echo "ARM64-TESTS: FAIL $id exit $rc ($result) ${secs}s"
    fi
done < /tests/list
echo "ARM64-TESTS: DONE $pass passed, $fail failed binaries, $(( $(date +%s) - all ))s"
sync
poweroff -f
EOF
chmod 0755 "$rfs/init"
(cd "$rfs" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet | gzip -1) > "$vm/initramfs.gz"
say "initramfs $(du -h "$vm/initramfs.gz" | cut -f1) with $n test binaries ($(( $(date +%s) - t0 ))s so far)"

# --- 4. boot -----------------------------------------------------------------------------------
say "booting qemu-system-aarch64 (virt, cortex-a72, $smp cpus, 3G), timeout ${timeout_s}s"
t1=$(date +%s)
set +e
timeout --foreground -k 10 "$timeout_s" qemu-system-aarch64 -M virt -cpu cortex-a72 -smp "$smp" -m 3G \
    -nographic -no-reboot -nic none -kernel "$vmlinuz" -initrd "$vm/initramfs.gz" \
    -append "console=ttyAMA0 rdinit=/init quiet panic=-1" </dev/null 2>&1 | tee "$vm/console.log"
qrc=${PIPESTATUS[0]}
set -e
t2=$(date +%s)
echo
say "summary (console in $vm/console.log):"
grep -a '^ARM64-TESTS: \(PASS\|FAIL\|DONE\)' "$vm/console.log" | tr -d '\r' | sed 's/^/  /' || true
say "VM $(( t2 - t1 ))s, total $(( t2 - t0 ))s"
passed=$(grep -ac '^ARM64-TESTS: PASS' "$vm/console.log" || true)
if [[ $qrc -eq 124 ]]; then say "FAILED: timed out after ${timeout_s}s"; exit 1; fi
if ! grep -aq '^ARM64-TESTS: DONE' "$vm/console.log"; then say "FAILED: the VM stopped before the end (qemu exit $qrc)"; exit 1; fi
if [[ $passed -ne $n ]]; then say "FAILED: $passed of $n test binaries passed"; exit 1; fi
say "OK: all $n test binaries passed"
