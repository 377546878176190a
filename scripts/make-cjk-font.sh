#!/usr/bin/env bash
# Regenerates app/assets/fonts/NotoSansCJKjp-Subset.otf, the Japanese font embedded in the app.
#
# The subset keeps: ASCII, Latin-1, general punctuation, arrows, maths, box drawing, shapes,
# dingbats, enclosed numbers (①, ❷), CJK punctuation, hiragana, katakana, full/half-width forms,
# the non-kanji rows 1–8 and the level-1 kanji (rows 16–47, 2965 kanji) of JIS X 0208, and every
# other character that appears in the card catalogues (cards/data) and the Rust sources of
# cards/ and app/ (so every card name and UI word renders).
#
# Source: Noto Sans CJK JP Regular, face 0 of NotoSansCJK-Regular.ttc from Debian's
# fonts-noto-cjk (SIL Open Font License 1.1; see app/assets/fonts/OFL.txt).
#
# Needs: apt-get install -y fonts-noto-cjk; pip install fonttools.
# Usage: scripts/make-cjk-font.sh [SOURCE.ttc]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
src=${1:-/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc}
out="$root/app/assets/fonts/NotoSansCJKjp-Subset.otf"
[[ -f $src ]] || { echo "make-cjk-font: $src not found (apt-get install -y fonts-noto-cjk)" >&2; exit 1; }
command -v pyftsubset >/dev/null || { echo "make-cjk-font: pyftsubset not found (pip install fonttools)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 - "$root" "$work/chars.txt" <<'PY'
import pathlib, sys
root, out = pathlib.Path(sys.argv[1]), sys.argv[2]
cps = set()
def span(a, b):
    cps.update(range(a, b + 1))
span(0x20, 0x7E)      # ASCII
span(0xA0, 0xFF)      # Latin-1
span(0x2000, 0x206F)  # general punctuation
span(0x2100, 0x214F)  # letterlike symbols
span(0x2150, 0x218F)  # number forms
span(0x2190, 0x21FF)  # arrows
span(0x2200, 0x22FF)  # mathematical operators
span(0x2460, 0x24FF)  # enclosed alphanumerics ①
span(0x2500, 0x25FF)  # box drawing, block elements, geometric shapes
span(0x2600, 0x27BF)  # misc symbols, dingbats ❷ ✓
span(0x3000, 0x30FF)  # CJK punctuation, hiragana, katakana
span(0x31F0, 0x31FF)  # katakana phonetic extensions
span(0xFF00, 0xFFEF)  # full-width and half-width forms
# JIS X 0208 via EUC-JP: rows 1-8 (symbols, kana, Greek, Cyrillic, box) and 16-47 (level-1 kanji).
for row in list(range(1, 9)) + list(range(16, 48)):
    for cell in range(1, 95):
        try:
            ch = bytes([0xA0 + row, 0xA0 + cell]).decode("euc_jp")
        except UnicodeDecodeError:
            continue
        cps.update(ord(c) for c in ch)
# Every character the catalogues and the sources use.
for pattern in ("cards/data/**/*.toml", "cards/src/**/*.rs", "app/src/**/*.rs"):
    for path in sorted(root.glob(pattern)):
        cps.update(ord(c) for c in path.read_text(encoding="utf-8") if ord(c) > 0x7E)
cps.discard(0xFEFF)
with open(out, "w", encoding="ascii") as f:
    f.write(",".join(f"U+{cp:04X}" for cp in sorted(cps)))
print(f"make-cjk-font: {len(cps)} code points requested", file=sys.stderr)
PY

pyftsubset "$src" --font-number=0 --unicodes-file="$work/chars.txt" \
  --layout-features='kern,liga,locl,ccmp,palt,vert' --no-hinting \
  --name-IDs='*' --name-languages='*' --notdef-outline \
  --output-file="$out"
python3 - "$out" <<'PY'
import sys
from fontTools.ttLib import TTFont
f = TTFont(sys.argv[1])
print(f"make-cjk-font: {sys.argv[1]}: {len(f.getBestCmap())} characters, {f['name'].getDebugName(4)}", file=sys.stderr)
PY
ls -l "$out"
