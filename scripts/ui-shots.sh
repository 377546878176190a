#!/usr/bin/env bash
# Screenshots of the start screen and of the table screen mid-match of every game (Jaken: battle 3
# of scripts/mid-match.script; the others: the first half of their example match in
# docs/examples), in English and Japanese, at 1280x800 and 800x480 (the Raspberry Pi touch
# display), each under a private Xvfb display.
#
#   scripts/ui-shots.sh [OUT_DIR]        (default /tmp/ui-shots)
#
# Writes OUT_DIR/start-{en,ja}-SIZE.png, OUT_DIR/table-{en,ja}-SIZE.png (Jaken) and
# OUT_DIR/table-GAME-{en,ja}-SIZE.png for the other games. Needs Xvfb, ImageMagick's
# `import` and xdotool (apt-get install -y xvfb imagemagick xdotool). The table is reached with
# TABLESIDE_RESUME=latest (the window resumes the newest unfinished match), the language set
# with TABLESIDE_LANG.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-/tmp/ui-shots}
mkdir -p "$out"
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
"$bin" play --game jaken --script "$root/scripts/mid-match.script" --data-dir "$data" >/dev/null
# The other games: the first half of each example match, left unfinished.
for game in junk_ken rockman space_junk yomi; do
  mkdir -p "$data/$game"
  script=$root/docs/examples/$game-demo.script
  head -n $(( $(wc -l < "$script") / 2 )) "$script" > "$data/$game.script"
  id=${game//_/-}; [[ $id == rockman ]] && id=rockman-exe
  "$bin" play --game "$id" --script "$data/$game.script" --data-dir "$data/$game" >/dev/null
done

shot() { # shot SIZE LANG SCREEN [GAME]
  local size=$1 lang=$2 screen=$3 game=${4:-} display="" resume="" dir=$data name=$3
  if [[ -n $game ]]; then dir=$data/$game; name=$screen-${game//_/-}; fi
  for n in $(seq 320 420); do
    [[ -e /tmp/.X$n-lock || -e /tmp/.X11-unix/X$n ]] && continue
    Xvfb ":$n" -screen 0 "${size}x24" -nolisten tcp >/dev/null 2>&1 &
    xpid=$!
    for _ in $(seq 50); do [[ -S /tmp/.X11-unix/X$n ]] && break; sleep 0.1; done
    if [[ -S /tmp/.X11-unix/X$n ]] && kill -0 "$xpid" 2>/dev/null; then display=:$n; break; fi
    xpid=""
  done
  [[ -n $display ]] || { echo "ui-shots.sh: no free X display" >&2; exit 1; }
  [[ $screen == table ]] && resume=latest
  DISPLAY=$display TABLESIDE_LANG=$lang TABLESIDE_RESUME=$resume "$bin" --data-dir "$dir" \
    >"$out/$name-$lang-$size.log" 2>&1 &
  apid=$!
  local wid=""
  for _ in $(seq 100); do
    wid=$(DISPLAY=$display xdotool search --name '^Tableside$' 2>/dev/null | head -n1 || true)
    [[ -n $wid ]] && break
    sleep 0.2
  done
  [[ -n $wid ]] || { echo "ui-shots.sh: no window (log: $out/$name-$lang-$size.log)" >&2; exit 1; }
  # No window manager: fit the window to the screen.
  DISPLAY=$display xdotool windowmove "$wid" 0 0 windowsize "$wid" "${size%x*}" "${size#*x}"
  sleep 3
  import -display "$display" -window root "$out/$name-$lang-$size.png"
  echo "$out/$name-$lang-$size.png"
  kill "$apid" 2>/dev/null || true; wait "$apid" 2>/dev/null || true; apid=""
  kill "$xpid" 2>/dev/null || true; wait "$xpid" 2>/dev/null || true; xpid=""
}

for size in 1280x800 800x480; do
  for lang in en ja; do
    shot "$size" "$lang" start
    shot "$size" "$lang" table
    for game in junk_ken rockman space_junk yomi; do
      shot "$size" "$lang" table "$game"
    done
  done
done
