#!/usr/bin/env bash
# Builds Tableside and takes a screenshot of its window under a private Xvfb display.
#
#   scripts/screenshot.sh [--size WxH] [--out FILE.png] [--script MATCH.script] [--kiosk]
#
# --size    screen size (default 1280x800)
# --out     where to write the PNG (default target/screenshots/tableside-WxH.png)
# --script  first store this match script (tableside play --game jaken --script FILE), then
#           press Tab and Return in the window to resume it: the shot shows the table screen.
#           scripts/mid-match.script stops in battle 3 with an effect to resolve.
# --kiosk   start the window in kiosk (full-screen) mode
#
# Needs Xvfb and ImageMagick's `import` (apt-get install -y xvfb imagemagick), and xdotool for
# --script and to fit the window to --size (apt-get install -y xdotool; without it the window
# keeps its default 1280x800). The data folder is a fresh temporary one.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
size=1280x800 out="" script="" kiosk=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --size) size=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --script) script=$(realpath "$2"); shift 2 ;;
    --kiosk) kiosk=(--kiosk); shift ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    *) echo "screenshot.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
[[ $size =~ ^[0-9]+x[0-9]+$ ]] || { echo "screenshot.sh: --size wants WxH, e.g. 1280x800" >&2; exit 2; }
out=${out:-$root/target/screenshots/tableside-$size.png}
for tool in Xvfb import; do
  command -v "$tool" >/dev/null || { echo "screenshot.sh: $tool is missing (apt-get install -y xvfb imagemagick)" >&2; exit 1; }
done
if [[ -n $script ]]; then
  command -v xdotool >/dev/null || { echo "screenshot.sh: xdotool is missing (apt-get install -y xdotool)" >&2; exit 1; }
fi

(cd "$root" && cargo build --workspace --bin tableside)
bin=$root/target/debug/tableside
data=$(mktemp -d)
xpid="" apid=""
cleanup() {
  [[ -n $apid ]] && kill "$apid" 2>/dev/null || true
  [[ -n $xpid ]] && kill "$xpid" 2>/dev/null || true
  rm -rf "$data"
}
trap cleanup EXIT

if [[ -n $script ]]; then
  "$bin" play --game jaken --script "$script" --data-dir "$data" >/dev/null
fi

# A free display: the first number whose lock file and socket are absent and where Xvfb starts.
for n in $(seq 90 189); do
  [[ -e /tmp/.X$n-lock || -e /tmp/.X11-unix/X$n ]] && continue
  Xvfb ":$n" -screen 0 "${size}x24" -nolisten tcp >/dev/null 2>&1 &
  xpid=$!
  for _ in $(seq 50); do
    [[ -S /tmp/.X11-unix/X$n ]] && break
    kill -0 "$xpid" 2>/dev/null || break
    sleep 0.1
  done
  if [[ -S /tmp/.X11-unix/X$n ]] && kill -0 "$xpid" 2>/dev/null; then
    display=:$n
    break
  fi
  xpid=""
done
[[ -n ${display:-} ]] || { echo "screenshot.sh: no free X display found" >&2; exit 1; }

mkdir -p "$(dirname "$out")"
log=${out%.png}.log
DISPLAY=$display "$bin" --data-dir "$data" "${kiosk[@]}" >"$log" 2>&1 &
apid=$!
# Wait for the window to be drawn: the screen holds more than a handful of colours.
for _ in $(seq 60); do
  kill -0 "$apid" 2>/dev/null || { echo "screenshot.sh: tableside exited (log: $log)" >&2; exit 1; }
  colours=$(import -display "$display" -window root png:- 2>/dev/null | convert png:- -format %k info: 2>/dev/null || echo 0)
  (( colours > 16 )) && break
  sleep 0.5
done
# Without a window manager the window keeps its first size (1280x800): fit it to the screen.
if command -v xdotool >/dev/null && (( ${#kiosk[@]} == 0 )); then
  wid=$(DISPLAY=$display xdotool search --name '^Tableside$' | head -n1)
  DISPLAY=$display xdotool windowsize "$wid" "${size%x*}" "${size#*x}"
  sleep 1
fi
if [[ -n $script ]]; then
  # Give the window the keyboard (there is no window manager), then Tab to the first focusable
  # widget of the start screen, "Resume match #1", and press it.
  wid=$(DISPLAY=$display xdotool search --name '^Tableside$' | head -n1)
  DISPLAY=$display xdotool windowfocus --sync "$wid"
  DISPLAY=$display xdotool key --window "$wid" Tab
  sleep 0.3
  DISPLAY=$display xdotool key --window "$wid" Return
  sleep 1.5
fi
import -display "$display" -window root "$out"
echo "$out ($(convert "$out" -format '%wx%h, %k colours' info:))"
