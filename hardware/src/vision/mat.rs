//! The play mat: its layout (size, corner markers, zones) and where it lies in the frame.
//!
//! A mat layout is a TOML file per game (`hardware/data/mats/<game>.toml`, embedded; a user
//! file loads the same way). Mat coordinates are millimetres from the mat's top-left corner as
//! printed, x to the right, y down. The four corner markers (`TS1:M:TL|TR|BR|BL:<check>`) give
//! the homography from frame pixels to the mat ([`MatPose`]); [`MatWatch`] keeps it over time
//! (re-estimated when markers move, kept while a marker is briefly covered by a hand). A point
//! on the mat falls in at most one [`Zone`]; a code's rotation relative to the mat snaps to
//! quarter turns ([`quarter_turns`]) unless it is ambiguous.
//!
//! ```toml
//! format = 1
//! game = "jaken"
//! name = "Jaken, two players"
//! size_mm = [700.0, 400.0]
//! seats = 2
//!
//! [markers]               # centres of the corner markers, and their code's width
//! size_mm = 50.0
//! top-left = [40.0, 40.0]
//! top-right = [660.0, 40.0]
//! bottom-right = [660.0, 360.0]
//! bottom-left = [40.0, 360.0]
//!
//! [[zones]]
//! name = "battle"
//! seat = 0                # optional: a zone of one player's side
//! rect = [296.0, 210.0, 108.0, 180.0]   # x, y, width, height in mm
//! ```
//!
//! ```
//! use cards::core::GameId;
//! use hardware::vision::mat::MatLayout;
//! let mat = MatLayout::builtin(GameId::Jaken)?;
//! let zone = mat.zone_at((350.0, 300.0)).map(|z| z.id.to_string());
//! assert_eq!(zone.as_deref(), Some("battle/0"));
//! # Ok::<(), hardware::vision::mat::MatError>(())
//! ```

use super::geometry::{Homography, Point};
use cards::core::GameId;
use cards::tags::Corner;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::Path;

/// The layout format this build reads.
pub const FORMAT: i64 = 1;

/// The built-in layouts, one per game: (file name, text).
pub const BUILTIN: [(GameId, &str, &str); 5] = [
    (
        GameId::Jaken,
        "jaken.toml (embedded)",
        include_str!("../../data/mats/jaken.toml"),
    ),
    (
        GameId::JunkKen,
        "junk-ken.toml (embedded)",
        include_str!("../../data/mats/junk-ken.toml"),
    ),
    (
        GameId::RockmanExe,
        "rockman-exe.toml (embedded)",
        include_str!("../../data/mats/rockman-exe.toml"),
    ),
    (
        GameId::SpaceJunk,
        "space-junk.toml (embedded)",
        include_str!("../../data/mats/space-junk.toml"),
    ),
    (
        GameId::Yomi,
        "yomi.toml (embedded)",
        include_str!("../../data/mats/yomi.toml"),
    ),
];

/// Example layouts as players draw them, one per game (`hardware/data/mats/examples/`): the
/// zones along the mat's ends reach 1.9–2.9 mm into the corner markers' white margins, which
/// the loader clips with a warning. (file name, text)
pub const EXAMPLES: [(GameId, &str, &str); 5] = [
    (
        GameId::Jaken,
        "examples/jaken.toml",
        include_str!("../../data/mats/examples/jaken.toml"),
    ),
    (
        GameId::JunkKen,
        "examples/junk-ken.toml",
        include_str!("../../data/mats/examples/junk-ken.toml"),
    ),
    (
        GameId::RockmanExe,
        "examples/rockman-exe.toml",
        include_str!("../../data/mats/examples/rockman-exe.toml"),
    ),
    (
        GameId::SpaceJunk,
        "examples/space-junk.toml",
        include_str!("../../data/mats/examples/space-junk.toml"),
    ),
    (
        GameId::Yomi,
        "examples/yomi.toml",
        include_str!("../../data/mats/examples/yomi.toml"),
    ),
];

/// What goes wrong loading a mat layout.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MatError {
    /// The file cannot be read.
    #[error("cannot read the mat layout {path}: {reason}")]
    Read {
        /// The file.
        path: String,
        /// Why.
        reason: String,
    },
    /// The file is read but wrong: located to line, column and field.
    #[error("{file}:{line}:{column}: {}{message}", field.as_ref().map(|f| format!("field `{f}`: ")).unwrap_or_default())]
    Invalid {
        /// The file's name as given to the loader.
        file: String,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// The field concerned, when one is.
        field: Option<String>,
        /// What is wrong.
        message: String,
    },
}

/// A zone edge a mat layout moved (see [`MatWarning`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Edge {
    /// The left edge (x).
    Left,
    /// The right edge (x + width).
    Right,
    /// The top edge (y).
    Top,
    /// The bottom edge (y + height).
    Bottom,
}

impl Edge {
    /// "left", "right", …
    pub fn label(self) -> &'static str {
        match self {
            Edge::Left => "left",
            Edge::Right => "right",
            Edge::Top => "top",
            Edge::Bottom => "bottom",
        }
    }

    /// 左, 右, 上, 下.
    pub fn label_ja(self) -> &'static str {
        match self {
            Edge::Left => "左",
            Edge::Right => "右",
            Edge::Top => "上",
            Edge::Bottom => "下",
        }
    }
}

fn corner_ja(c: Corner) -> &'static str {
    match c {
        Corner::TopLeft => "左上",
        Corner::TopRight => "右上",
        Corner::BottomRight => "右下",
        Corner::BottomLeft => "左下",
    }
}

/// Something a layout file had that was taken, changed: the loader says what it changed.
#[derive(Clone, Debug, PartialEq)]
pub enum MatWarning {
    /// A zone reached into the white margin (quiet zone) a corner marker needs to be read; the
    /// zone's edge was moved out of it. (A zone over the marker's code itself is refused.)
    ZoneClipped {
        /// The layout file.
        file: String,
        /// The zone's line in the file.
        line: usize,
        /// The zone (`deck/0`).
        zone: ZoneId,
        /// Whose margin.
        corner: Corner,
        /// The edge moved.
        edge: Edge,
        /// How far the zone reached into the margin, mm.
        by_mm: f64,
        /// Where the edge was, mm from the mat's left (left, right) or top (top, bottom).
        from_mm: f64,
        /// Where it is now.
        to_mm: f64,
    },
}

impl MatWarning {
    /// The warning in Japanese.
    pub fn ja(&self) -> String {
        match self {
            MatWarning::ZoneClipped {
                file,
                line,
                zone,
                corner,
                edge,
                by_mm,
                from_mm,
                to_mm,
            } => format!(
                "{file}:{line}: ゾーン `{zone}` が{}のコーナーマーカーの白い余白に {by_mm:.1} mm \
                 入り込んでいたため、{}端を {from_mm:.1} mm から {to_mm:.1} mm に移しました\
                 （マーカーを読み取るには周囲の余白が必要です）",
                corner_ja(*corner),
                edge.label_ja()
            ),
        }
    }
}

impl fmt::Display for MatWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatWarning::ZoneClipped {
                file,
                line,
                zone,
                corner,
                edge,
                by_mm,
                from_mm,
                to_mm,
            } => write!(
                f,
                "{file}:{line}: zone `{zone}` reached {by_mm:.1} mm into the white margin of the \
                 {} corner marker; its {} edge was moved from {from_mm:.1} mm to {to_mm:.1} mm \
                 (a marker needs its margin clear to be read)",
                corner.label(),
                edge.label()
            ),
        }
    }
}

/// The printed square of a corner marker's code, and with its white margin (quiet zone) of
/// [`MARKER_MARGIN_MODULES`] modules (mm): (code, code and margin).
pub fn marker_squares(center: Point, marker_mm: f64) -> (Rect, Rect) {
    let half = marker_mm / 2.0;
    let outer = half + marker_mm * MARKER_MARGIN_MODULES / MARKER_MODULES;
    let sq = |h: f64| Rect {
        x: center.0 - h,
        y: center.1 - h,
        w: 2.0 * h,
        h: 2.0 * h,
    };
    (sq(half), sq(outer))
}

/// Modules across a corner marker's code (version 2).
pub const MARKER_MODULES: f64 = 25.0;
/// The white margin a corner marker keeps clear around its code, in modules (the QR quiet zone).
pub const MARKER_MARGIN_MODULES: f64 = 4.0;

/// Moves `rect`'s edge out of `margin` the least way that leaves it a positive size: (the
/// edge, how far it reached in, where it was, where it is, the new rectangle).
fn clip_out(rect: &Rect, margin: &Rect) -> Option<(Edge, f64, f64, f64, Rect)> {
    let mut options = Vec::new();
    // The zone's left edge inside the margin, the zone to its right: move the left edge right.
    if rect.x < margin.x + margin.w && rect.x + rect.w > margin.x + margin.w {
        let to = margin.x + margin.w;
        let r = Rect {
            x: to,
            w: rect.x + rect.w - to,
            ..*rect
        };
        options.push((Edge::Left, to - rect.x, rect.x, to, r));
    }
    if rect.x + rect.w > margin.x && rect.x < margin.x {
        let to = margin.x;
        let r = Rect {
            w: to - rect.x,
            ..*rect
        };
        options.push((Edge::Right, rect.x + rect.w - to, rect.x + rect.w, to, r));
    }
    if rect.y < margin.y + margin.h && rect.y + rect.h > margin.y + margin.h {
        let to = margin.y + margin.h;
        let r = Rect {
            y: to,
            h: rect.y + rect.h - to,
            ..*rect
        };
        options.push((Edge::Top, to - rect.y, rect.y, to, r));
    }
    if rect.y + rect.h > margin.y && rect.y < margin.y {
        let to = margin.y;
        let r = Rect {
            h: to - rect.y,
            ..*rect
        };
        options.push((Edge::Bottom, rect.y + rect.h - to, rect.y + rect.h, to, r));
    }
    options
        .into_iter()
        .filter(|o| o.4.w > 0.0 && o.4.h > 0.0)
        .min_by(|a, b| a.1.total_cmp(&b.1))
}

/// An axis-aligned rectangle on the mat, in mm.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rect {
    /// Left edge.
    pub x: f64,
    /// Top edge.
    pub y: f64,
    /// Width.
    pub w: f64,
    /// Height.
    pub h: f64,
}

impl Rect {
    /// Whether `p` lies inside (edges included on the top and left).
    pub fn contains(&self, p: Point) -> bool {
        p.0 >= self.x && p.0 < self.x + self.w && p.1 >= self.y && p.1 < self.y + self.h
    }

    /// The centre.
    pub fn center(&self) -> Point {
        (self.x + self.w / 2.0, self.y + self.h / 2.0)
    }

    /// Whether the two rectangles share some area (touching edges do not count).
    pub fn overlaps(&self, o: &Rect) -> bool {
        self.x < o.x + o.w && o.x < self.x + self.w && self.y < o.y + o.h && o.y < self.y + self.h
    }
}

/// A zone's name and, for a zone of one player's side, the seat.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct ZoneId {
    /// The name, e.g. `battle`.
    pub name: String,
    /// The seat (0, 1, …) whose zone it is; `None` for a shared zone.
    pub seat: Option<usize>,
}

impl fmt::Display for ZoneId {
    /// `battle/0` for seat 0's battle zone, `board` for a shared one.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.seat {
            Some(s) => write!(f, "{}/{s}", self.name),
            None => f.write_str(&self.name),
        }
    }
}

/// A named region of the mat.
#[derive(Clone, Debug, PartialEq)]
pub struct Zone {
    /// Its name and seat.
    pub id: ZoneId,
    /// Where it is. A card belongs to the zone its centre lies in.
    pub rect: Rect,
}

/// A game's mat: size, corner markers and zones.
#[derive(Clone, Debug, PartialEq)]
pub struct MatLayout {
    /// The game.
    pub game: GameId,
    /// A name for people.
    pub name: String,
    /// Width and height in mm.
    pub size_mm: Point,
    /// How many seats the zones are laid out for.
    pub seats: usize,
    /// Centres of the corner markers in mm, in [`Corner::ALL`] order (TL, TR, BR, BL).
    pub markers: [Point; 4],
    /// The markers' code width in mm (without quiet zone).
    pub marker_mm: f64,
    /// The zones, in file order (as clipped by the loader).
    pub zones: Vec<Zone>,
    /// What the loader changed in the file (zones moved out of a marker's margin), in file
    /// order.
    pub warnings: Vec<MatWarning>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLayout {
    format: i64,
    game: String,
    name: String,
    size_mm: [f64; 2],
    seats: usize,
    markers: toml::Spanned<RawMarkers>,
    #[serde(default)]
    zones: Vec<toml::Spanned<RawZone>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawMarkers {
    #[serde(rename = "size_mm")]
    size_mm: f64,
    top_left: [f64; 2],
    top_right: [f64; 2],
    bottom_right: [f64; 2],
    bottom_left: [f64; 2],
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawZone {
    name: String,
    #[serde(default)]
    seat: Option<usize>,
    rect: [f64; 4],
}

struct Ctx<'a> {
    file: &'a str,
    text: &'a str,
}

impl Ctx<'_> {
    fn err(&self, offset: usize, field: Option<&str>, message: impl Into<String>) -> MatError {
        let (line, column) = cards::catalogue::line_col(self.text, offset);
        MatError::Invalid {
            file: self.file.to_owned(),
            line,
            column,
            field: field.map(str::to_owned),
            message: message.into(),
        }
    }

    /// Offset of `key =` in the table starting at `start` (up to the next header), else `start`.
    fn field_offset(&self, start: usize, key: &str) -> usize {
        let body = self.text.get(start..).unwrap_or("");
        let mut pos = 0;
        for (i, line) in body.split_inclusive('\n').enumerate() {
            let trimmed = line.trim_start();
            if i > 0 && trimmed.starts_with('[') {
                break;
            }
            if let Some(rest) = trimmed.strip_prefix(key)
                && rest.trim_start().starts_with('=')
            {
                return start + pos + (line.len() - trimmed.len());
            }
            pos += line.len();
        }
        start
    }

    fn field_err(&self, start: usize, key: &str, message: impl Into<String>) -> MatError {
        self.err(self.field_offset(start, key), Some(key), message)
    }
}

fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

impl MatLayout {
    /// The built-in layout of `game` (`hardware/data/mats/<game>.toml`).
    ///
    /// # Errors
    /// Only if the embedded file is broken (a test checks it is not).
    pub fn builtin(game: GameId) -> Result<MatLayout, MatError> {
        let (file, text) = BUILTIN
            .iter()
            .find(|(g, _, _)| *g == game)
            .map_or((BUILTIN[0].1, BUILTIN[0].2), |(_, f, t)| (*f, *t));
        MatLayout::load(file, text)
    }

    /// Reads a layout file.
    ///
    /// # Errors
    /// [`MatError::Read`] if it cannot be read, [`MatError::Invalid`] if it is wrong.
    pub fn load_file(path: impl AsRef<Path>) -> Result<MatLayout, MatError> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path).map_err(|e| MatError::Read {
            path: path.display().to_string(),
            reason: e.to_string(),
        })?;
        MatLayout::load(&path.display().to_string(), &text)
    }

    /// Reads a layout from its text; `file` names it in errors.
    ///
    /// # Errors
    /// [`MatError::Invalid`], with line, column and field: bad TOML, an unknown game, a zone
    /// outside the mat or over a corner marker or over another zone, a seat out of range, two
    /// zones of one name and seat, markers that give no homography.
    pub fn load(file: &str, text: &str) -> Result<MatLayout, MatError> {
        let ctx = Ctx { file, text };
        let raw: RawLayout = toml::from_str(text).map_err(|e| {
            let offset = e.span().map_or(0, |s| s.start);
            let message = e.message().trim().to_owned();
            let field = message
                .split('`')
                .nth(1)
                .filter(|_| message.contains("field"))
                .map(str::to_owned);
            match ctx.err(offset, None, message) {
                MatError::Invalid {
                    file,
                    line,
                    column,
                    message,
                    ..
                } => MatError::Invalid {
                    file,
                    line,
                    column,
                    field,
                    message,
                },
                other => other,
            }
        })?;
        if raw.format != FORMAT {
            return Err(ctx.field_err(
                0,
                "format",
                format!(
                    "format {} is not one this build reads ({FORMAT})",
                    raw.format
                ),
            ));
        }
        let game = GameId::parse(&raw.game).ok_or_else(|| {
            ctx.field_err(
                0,
                "game",
                format!(
                    "unknown game `{}` (expected one of: {})",
                    raw.game,
                    GameId::ALL.map(GameId::as_str).join(", ")
                ),
            )
        })?;
        let [w, h] = raw.size_mm;
        if !(w > 0.0 && h > 0.0 && w <= 5000.0 && h <= 5000.0) {
            return Err(ctx.field_err(0, "size_mm", "width and height must be 0 < mm ≤ 5000"));
        }
        if raw.seats == 0 || raw.seats > 8 {
            return Err(ctx.field_err(0, "seats", "seats must be 1 to 8"));
        }
        let m = raw.markers.get_ref();
        let mstart = raw.markers.span().start;
        if !(m.size_mm > 0.0 && m.size_mm < w.min(h) / 2.0) {
            return Err(ctx.field_err(
                mstart,
                "size_mm",
                "the markers' size must be more than 0 and less than half the mat",
            ));
        }
        let keys = ["top-left", "top-right", "bottom-right", "bottom-left"];
        let markers =
            [m.top_left, m.top_right, m.bottom_right, m.bottom_left].map(|p| (p[0], p[1]));
        let mat = Rect {
            x: 0.0,
            y: 0.0,
            w,
            h,
        };
        for (p, key) in markers.iter().zip(keys) {
            if !mat.contains(*p) {
                return Err(ctx.field_err(mstart, key, "the marker's centre is outside the mat"));
            }
        }
        let square = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)];
        if Homography::from_points(markers, square).is_none() {
            return Err(ctx.field_err(
                mstart,
                "top-left",
                "three of the markers lie on one line: they give no homography",
            ));
        }
        // A marker's printed code, and with its quiet zone (4 modules of a version-2 code).
        let squares = markers.map(|c| marker_squares(c, m.size_mm));
        let mut zones: Vec<Zone> = Vec::new();
        let mut warnings = Vec::new();
        for z in &raw.zones {
            let start = z.span().start;
            let rz = z.get_ref();
            if !valid_name(&rz.name) {
                return Err(ctx.field_err(
                    start,
                    "name",
                    format!(
                        "zone name `{}` must be lowercase letters, digits and `-`",
                        rz.name
                    ),
                ));
            }
            if let Some(seat) = rz.seat
                && seat >= raw.seats
            {
                return Err(ctx.field_err(
                    start,
                    "seat",
                    format!(
                        "seat {seat} is out of range: the mat has seats 0–{}",
                        raw.seats - 1
                    ),
                ));
            }
            let [x, y, zw, zh] = rz.rect;
            let mut rect = Rect { x, y, w: zw, h: zh };
            if !(zw > 0.0 && zh > 0.0) || x < 0.0 || y < 0.0 || x + zw > w || y + zh > h {
                return Err(ctx.field_err(
                    start,
                    "rect",
                    format!(
                        "zone `{}` [{x}, {y}, {zw}, {zh}] must have a positive size and lie inside the {w} × {h} mm mat",
                        rz.name
                    ),
                ));
            }
            let id = ZoneId {
                name: rz.name.clone(),
                seat: rz.seat,
            };
            if let Some((corner, (code, _))) = Corner::ALL
                .iter()
                .zip(&squares)
                .find(|(_, (code, _))| code.overlaps(&rect))
            {
                return Err(ctx.field_err(
                    start,
                    "rect",
                    format!(
                        "zone `{id}` covers the {} corner marker's code (x {:.1}–{:.1} mm, \
                         y {:.1}–{:.1} mm); a zone may reach into the marker's white margin, \
                         not over its code",
                        corner.label(),
                        code.x,
                        code.x + code.w,
                        code.y,
                        code.y + code.h,
                    ),
                ));
            }
            // Into a marker's white margin only: moved out of it, with a warning.
            for (corner, (_, margin)) in Corner::ALL.iter().zip(&squares) {
                if !margin.overlaps(&rect) {
                    continue;
                }
                let Some((edge, by_mm, from_mm, to_mm, clipped)) = clip_out(&rect, margin) else {
                    return Err(ctx.field_err(
                        start,
                        "rect",
                        format!(
                            "zone `{id}` lies within the white margin of the {} corner marker",
                            corner.label()
                        ),
                    ));
                };
                rect = clipped;
                warnings.push(MatWarning::ZoneClipped {
                    file: file.to_owned(),
                    line: cards::catalogue::line_col(text, start).0,
                    zone: id.clone(),
                    corner: *corner,
                    edge,
                    by_mm,
                    from_mm,
                    to_mm,
                });
            }
            if let Some(other) = zones.iter().find(|o| o.id == id) {
                return Err(ctx.field_err(start, "name", format!("a second zone `{}`", other.id)));
            }
            if let Some(other) = zones.iter().find(|o| o.rect.overlaps(&rect)) {
                return Err(ctx.field_err(
                    start,
                    "rect",
                    format!("zone `{id}` overlaps zone `{}`", other.id),
                ));
            }
            zones.push(Zone { id, rect });
        }
        Ok(MatLayout {
            game,
            name: raw.name,
            size_mm: (w, h),
            seats: raw.seats,
            markers,
            marker_mm: m.size_mm,
            zones,
            warnings,
        })
    }

    /// The zone `p` (mat mm) lies in, if any.
    pub fn zone_at(&self, p: Point) -> Option<&Zone> {
        self.zones.iter().find(|z| z.rect.contains(p))
    }

    /// The zone of this name and seat.
    pub fn zone(&self, name: &str, seat: Option<usize>) -> Option<&Zone> {
        self.zones
            .iter()
            .find(|z| z.id.name == name && z.id.seat == seat)
    }

    /// Whether `p` lies on the mat.
    pub fn on_mat(&self, p: Point) -> bool {
        Rect {
            x: 0.0,
            y: 0.0,
            w: self.size_mm.0,
            h: self.size_mm.1,
        }
        .contains(p)
    }

    /// The centre of `corner`'s marker, in mm.
    pub fn marker(&self, corner: Corner) -> Point {
        let i = Corner::ALL.iter().position(|c| *c == corner).unwrap_or(0);
        self.markers[i]
    }
}

/// The quarter turns (0–3, clockwise) nearest to `angle_deg`, or `None` when the angle is more
/// than `max_skew_deg` from every quarter turn (near 45°: ambiguous, so not reported).
pub fn quarter_turns(angle_deg: f64, max_skew_deg: f64) -> Option<u8> {
    if !angle_deg.is_finite() {
        return None;
    }
    let a = angle_deg.rem_euclid(360.0);
    let q = (a / 90.0).round();
    if (a - q * 90.0).abs() > max_skew_deg.min(44.0) {
        return None;
    }
    Some((q as u8) % 4)
}

/// The centre of a quadrilateral (e.g. a QR code's four corners in pixels): where its
/// diagonals cross, which a perspective map keeps (unlike the mean of the corners).
pub fn quad_center(c: &[(f32, f32); 4]) -> Point {
    let p = c.map(|(x, y)| (f64::from(x), f64::from(y)));
    let mean = (
        (p[0].0 + p[1].0 + p[2].0 + p[3].0) / 4.0,
        (p[0].1 + p[1].1 + p[2].1 + p[3].1) / 4.0,
    );
    let (d1, d2) = (
        (p[2].0 - p[0].0, p[2].1 - p[0].1),
        (p[3].0 - p[1].0, p[3].1 - p[1].1),
    );
    let den = d1.0 * d2.1 - d1.1 * d2.0;
    if den.abs() < 1e-9 {
        return mean;
    }
    let t = ((p[1].0 - p[0].0) * d2.1 - (p[1].1 - p[0].1) * d2.0) / den;
    if !(0.0..=1.0).contains(&t) {
        return mean;
    }
    (p[0].0 + t * d1.0, p[0].1 + t * d1.1)
}

/// Where the mat lies in the frame: the maps between frame pixels and mat mm.
#[derive(Clone, Debug, PartialEq)]
pub struct MatPose {
    /// Frame pixels → mat mm.
    pub px_to_mat: Homography,
    /// Mat mm → frame pixels.
    pub mat_to_px: Homography,
    /// The marker centres in pixels it was estimated from (TL, TR, BR, BL).
    pub markers_px: [Point; 4],
}

impl MatPose {
    /// The pose from the four marker centres in the frame; `None` if they give no homography.
    pub fn from_markers(layout: &MatLayout, markers_px: [Point; 4]) -> Option<MatPose> {
        let px_to_mat = Homography::from_points(markers_px, layout.markers)?;
        let mat_to_px = px_to_mat.inverse()?;
        Some(MatPose {
            px_to_mat,
            mat_to_px,
            markers_px,
        })
    }

    /// A frame point on the mat, in mm.
    pub fn to_mat(&self, px: Point) -> Option<Point> {
        self.px_to_mat.map(px)
    }

    /// A code's centre on the mat (mm) and its rotation relative to the mat (degrees
    /// clockwise in 0..360, 0 = the code's top towards the mat's top edge), from its corners
    /// in pixels (top left, top right, bottom right, bottom left in the code's orientation).
    pub fn place(&self, corners: &[(f32, f32); 4]) -> Option<(Point, f64)> {
        let m: Vec<Point> = corners
            .iter()
            .map(|&(x, y)| self.px_to_mat.map((f64::from(x), f64::from(y))))
            .collect::<Option<Vec<_>>>()?;
        let mf = [m[0], m[1], m[2], m[3]].map(|(x, y)| (x as f32, y as f32));
        let center = quad_center(&mf);
        // Mean direction of the top and bottom edges (left to right in the code's frame).
        let dx = (m[1].0 - m[0].0) + (m[2].0 - m[3].0);
        let dy = (m[1].1 - m[0].1) + (m[2].1 - m[3].1);
        let angle = dy.atan2(dx).to_degrees().rem_euclid(360.0);
        Some((center, angle))
    }
}

/// Settings of [`MatWatch`].
#[derive(Clone, Debug, PartialEq)]
pub struct MatWatchConfig {
    /// A marker further than this (pixels) from where the pose puts it has moved: the pose is
    /// estimated again.
    pub move_px: f64,
    /// The mat counts as lost when fewer than three markers were seen within this many seconds.
    pub lost_after_s: f64,
}

impl Default for MatWatchConfig {
    fn default() -> Self {
        MatWatchConfig {
            move_px: 4.0,
            lost_after_s: 3.0,
        }
    }
}

/// A change of the mat's state.
#[derive(Clone, Debug, PartialEq)]
pub enum MatChange {
    /// The mat is located (again).
    Found,
    /// The mat is lost: these markers were not seen for a while.
    Lost(Vec<Corner>),
}

/// Follows the mat from frame to frame: the pose from the four corner markers, kept while a
/// marker is covered, re-estimated when the visible markers say the mat (or the camera) moved.
#[derive(Clone, Debug)]
pub struct MatWatch {
    layout: MatLayout,
    config: MatWatchConfig,
    pose: Option<MatPose>,
    /// Each marker's last centre in pixels and when it was seen.
    seen: [Option<(Point, f64)>; 4],
    /// Whether the tracker may trust the pose now.
    found: bool,
    lost_reported: bool,
    started: Option<f64>,
}

impl MatWatch {
    /// Watches for `layout`'s markers.
    pub fn new(layout: MatLayout, config: MatWatchConfig) -> MatWatch {
        MatWatch {
            layout,
            config,
            pose: None,
            seen: [None; 4],
            found: false,
            lost_reported: false,
            started: None,
        }
    }

    /// The layout.
    pub fn layout(&self) -> &MatLayout {
        &self.layout
    }

    /// The current pose, when the mat is located.
    pub fn pose(&self) -> Option<&MatPose> {
        self.pose.as_ref().filter(|_| self.found)
    }

    /// Whether the mat is located now.
    pub fn found(&self) -> bool {
        self.found
    }

    /// Takes the markers seen in a frame at `time_s` (corner and the centre of its code in
    /// pixels); returns the change of state, if any.
    pub fn update(&mut self, time_s: f64, markers: &[(Corner, Point)]) -> Option<MatChange> {
        let start = *self.started.get_or_insert(time_s);
        let mut now: [Option<Point>; 4] = [None; 4];
        for (corner, p) in markers {
            if let Some(i) = Corner::ALL.iter().position(|c| c == corner) {
                now[i] = Some(*p);
                self.seen[i] = Some((*p, time_s));
            }
        }
        let visible = now.iter().filter(|p| p.is_some()).count();
        match &self.pose {
            None => {
                // First pose: all four markers at once.
                if let [Some(a), Some(b), Some(c), Some(d)] = now {
                    self.pose = MatPose::from_markers(&self.layout, [a, b, c, d]);
                }
            }
            Some(pose) => {
                let moved = (0..4).any(|i| {
                    now[i].is_some_and(|p| dist(p, pose.markers_px[i]) > self.config.move_px)
                });
                if moved {
                    let new = if let [Some(a), Some(b), Some(c), Some(d)] = now {
                        MatPose::from_markers(&self.layout, [a, b, c, d])
                    } else if visible == 3 {
                        // Three markers moved together: carry the fourth along with the affine
                        // map that takes the three old centres to the new ones.
                        let idx: Vec<usize> = (0..4).filter(|&i| now[i].is_some()).collect();
                        let missing = (0..4).find(|i| now[*i].is_none()).unwrap_or(0);
                        let old = idx.iter().map(|&i| pose.markers_px[i]).collect::<Vec<_>>();
                        let new = idx.iter().filter_map(|&i| now[i]).collect::<Vec<_>>();
                        affine3(&old, &new)
                            .and_then(|a| a.map(pose.markers_px[missing]))
                            .and_then(|p| {
                                let mut pts = pose.markers_px;
                                for &i in &idx {
                                    if let Some(q) = now[i] {
                                        pts[i] = q;
                                    }
                                }
                                pts[missing] = p;
                                MatPose::from_markers(&self.layout, pts)
                            })
                    } else {
                        None
                    };
                    // Fewer than three markers in view and one moved: the pose cannot be
                    // trusted until enough markers are seen again.
                    self.pose = new;
                }
            }
        }
        let recent = self
            .seen
            .iter()
            .filter(|s| s.is_some_and(|(_, t)| time_s - t <= self.config.lost_after_s))
            .count();
        let ok = self.pose.is_some() && recent >= 3;
        if ok {
            if self.found {
                return None;
            }
            self.found = true;
            self.lost_reported = false;
            return Some(MatChange::Found);
        }
        let was = self.found;
        self.found = false;
        if !self.lost_reported && (was || time_s - start >= self.config.lost_after_s) {
            self.lost_reported = true;
            let missing = Corner::ALL
                .iter()
                .zip(&self.seen)
                .filter(|(_, s)| !s.is_some_and(|(_, t)| time_s - t <= self.config.lost_after_s))
                .map(|(c, _)| *c)
                .collect();
            return Some(MatChange::Lost(missing));
        }
        None
    }
}

fn dist(a: Point, b: Point) -> f64 {
    ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt()
}

/// The affine map taking three points to three others.
fn affine3(from: &[Point], to: &[Point]) -> Option<Homography> {
    let [a, b, c] = <[Point; 3]>::try_from(from).ok()?;
    let [p, q, r] = <[Point; 3]>::try_from(to).ok()?;
    // A fourth point completing the parallelogram keeps the map affine.
    let d = (b.0 + c.0 - a.0, b.1 + c.1 - a.1);
    let s = (q.0 + r.0 - p.0, q.1 + r.1 - p.1);
    Homography::from_points([a, b, c, d], [p, q, r, s])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_layout_loads() {
        for game in GameId::ALL {
            let mat = MatLayout::builtin(game).unwrap();
            assert_eq!(mat.game, game);
            assert!(!mat.zones.is_empty());
        }
    }

    fn err_of(text: &str) -> (usize, Option<String>, String) {
        match MatLayout::load("m.toml", text) {
            Err(MatError::Invalid {
                line,
                field,
                message,
                file,
                ..
            }) => {
                assert_eq!(file, "m.toml");
                (line, field, message)
            }
            other => panic!("{other:?}"),
        }
    }

    const HEAD: &str = "format = 1\ngame = \"jaken\"\nname = \"t\"\nsize_mm = [700.0, 400.0]\nseats = 2\n\n[markers]\nsize_mm = 50.0\ntop-left = [40.0, 40.0]\ntop-right = [660.0, 40.0]\nbottom-right = [660.0, 360.0]\nbottom-left = [40.0, 360.0]\n";

    #[test]
    fn layout_errors_name_file_line_and_field() {
        let ok = format!(
            "{HEAD}\n[[zones]]\nname = \"battle\"\nseat = 0\nrect = [300.0, 200.0, 100.0, 100.0]\n"
        );
        assert!(MatLayout::load("m.toml", &ok).is_ok());
        // Line 17: rect of the first zone, outside the mat.
        let out = format!(
            "{HEAD}\n[[zones]]\nname = \"battle\"\nseat = 0\nrect = [650.0, 200.0, 100.0, 100.0]\n"
        );
        let (line, field, msg) = err_of(&out);
        assert_eq!((line, field.as_deref()), (17, Some("rect")), "{msg}");
        let seat = format!(
            "{HEAD}\n[[zones]]\nname = \"battle\"\nseat = 2\nrect = [300.0, 200.0, 100.0, 100.0]\n"
        );
        assert_eq!(err_of(&seat).0, 16);
        assert_eq!(err_of(&seat).1.as_deref(), Some("seat"));
        let overlap = format!(
            "{ok}\n[[zones]]\nname = \"bg\"\nseat = 0\nrect = [350.0, 250.0, 100.0, 100.0]\n"
        );
        let (line, field, msg) = err_of(&overlap);
        assert_eq!((line, field.as_deref()), (22, Some("rect")));
        assert!(msg.contains("overlaps zone `battle/0`"), "{msg}");
        let marker =
            format!("{HEAD}\n[[zones]]\nname = \"deck\"\nrect = [10.0, 300.0, 90.0, 90.0]\n");
        let (_, _, msg) = err_of(&marker);
        assert!(msg.contains("bottom left corner marker"), "{msg}");
        let game = HEAD.replace("\"jaken\"", "\"chess\"");
        assert_eq!(err_of(&game).0, 2);
        assert_eq!(err_of(&game).1.as_deref(), Some("game"));
        let unknown = format!(
            "{HEAD}\n[[zones]]\nname = \"deck\"\ncolour = \"red\"\nrect = [300.0, 200.0, 10.0, 10.0]\n"
        );
        let (line, field, _) = err_of(&unknown);
        assert_eq!((line, field.as_deref()), (16, Some("colour")));
        let text = MatLayout::load("m.toml", &out).unwrap_err().to_string();
        assert!(text.starts_with("m.toml:17:1: field `rect`: "), "{text}");
    }

    #[test]
    fn every_games_example_drawn_into_the_marker_margins_loads_clipped_with_warnings() {
        for (game, file, text) in EXAMPLES {
            let mat = MatLayout::load(file, text).unwrap();
            let builtin = MatLayout::builtin(game).unwrap();
            assert_eq!(mat.game, game);
            assert_eq!(mat.zones.len(), builtin.zones.len());
            assert_eq!(mat.warnings.len(), 4, "{file}: {:#?}", mat.warnings);
            assert!(
                builtin.warnings.is_empty(),
                "{game}: {:?}",
                builtin.warnings
            );
            let mut corners = Vec::new();
            for w in &mat.warnings {
                let MatWarning::ZoneClipped {
                    file: f,
                    line,
                    zone,
                    corner,
                    edge,
                    by_mm,
                    from_mm,
                    to_mm,
                } = w;
                assert_eq!(f, file);
                corners.push(*corner);
                assert!((1.85..=2.95).contains(by_mm), "{w}");
                assert!(((to_mm - from_mm).abs() - by_mm).abs() < 1e-9, "{w}");
                // Named with its zone, its line and the millimetres, in both languages.
                let (en, ja) = (w.to_string(), w.ja());
                for text in [&en, &ja] {
                    assert!(text.contains(&format!("`{zone}`")), "{text}");
                    assert!(text.contains(&format!("{by_mm:.1} mm")), "{text}");
                    assert!(text.contains(&format!("{file}:{line}:")), "{text}");
                }
                assert!(
                    en.contains(edge.label()) && en.contains(corner.label()),
                    "{en}"
                );
                assert!(ja.contains("余白") && ja.contains(edge.label_ja()), "{ja}");
                // The zone now stops at the margin, and the rest of it is as drawn.
                let z = mat.zone(&zone.name, zone.seat).unwrap();
                let (_, margin) = marker_squares(mat.marker(*corner), mat.marker_mm);
                assert!(!z.rect.overlaps(&margin), "{w}: {:?}", z.rect);
                let inside = z.rect.center();
                assert_eq!(mat.zone_at(inside).map(|z| &z.id), Some(zone));
            }
            corners.sort();
            assert_eq!(corners, Corner::ALL.to_vec(), "{file}");
        }
        // A zone over a marker's code itself is refused, naming the code's square.
        let over = format!("{HEAD}\n[[zones]]\nname = \"deck\"\nrect = [60.0, 20.0, 90.0, 90.0]\n");
        let (line, field, msg) = err_of(&over);
        assert_eq!((line, field.as_deref()), (16, Some("rect")));
        assert!(
            msg.contains("top left corner marker's code (x 15.0–65.0 mm"),
            "{msg}"
        );
        // Into the margin only: clipped the least way, here the left edge to 73 mm.
        let into = format!("{HEAD}\n[[zones]]\nname = \"deck\"\nrect = [70.0, 20.0, 90.0, 90.0]\n");
        let mat = MatLayout::load("m.toml", &into).unwrap();
        assert_eq!(mat.zones[0].rect.x, 73.0);
        assert_eq!(mat.zones[0].rect.w, 87.0);
        assert!(
            mat.warnings[0]
                .to_string()
                .starts_with("m.toml:14: zone `deck` reached 3.0 mm")
        );
    }

    #[test]
    fn the_homography_from_the_markers_maps_pixels_to_mat_mm() {
        let mat = MatLayout::builtin(GameId::Jaken).unwrap();
        // A camera: scale 2.6, a perspective tilt, a roll.
        let cam = Homography::from_points(
            [(0.0, 0.0), (700.0, 0.0), (700.0, 400.0), (0.0, 400.0)],
            [
                (130.0, 60.0),
                (1790.0, 80.0),
                (1860.0, 1030.0),
                (50.0, 1010.0),
            ],
        )
        .unwrap();
        let px = mat.markers.map(|m| cam.map(m).unwrap());
        let pose = MatPose::from_markers(&mat, px).unwrap();
        for p in [(350.0, 200.0), (100.0, 380.0), (612.0, 17.0)] {
            let back = pose.to_mat(cam.map(p).unwrap()).unwrap();
            assert!(dist(back, p) < 1e-6, "{back:?} {p:?}");
        }
        // A code turned one quarter on the mat reads as 90° whatever the camera's roll.
        let code = [
            (300.0, 200.0),
            (300.0, 236.0),
            (264.0, 236.0),
            (264.0, 200.0),
        ]
        .map(|p| cam.map(p).unwrap())
        .map(|(x, y)| (x as f32, y as f32));
        let (c, angle) = pose.place(&code).unwrap();
        assert!(dist(c, (282.0, 218.0)) < 0.01, "{c:?}");
        assert_eq!(quarter_turns(angle, 25.0), Some(1), "{angle}");
    }

    #[test]
    fn rotation_snaps_to_quarter_turns_and_refuses_near_45_degrees() {
        assert_eq!(quarter_turns(3.0, 25.0), Some(0));
        assert_eq!(quarter_turns(357.0, 25.0), Some(0));
        assert_eq!(quarter_turns(-4.0, 25.0), Some(0));
        assert_eq!(quarter_turns(88.0, 25.0), Some(1));
        assert_eq!(quarter_turns(181.0, 25.0), Some(2));
        assert_eq!(quarter_turns(250.0, 25.0), Some(3));
        assert_eq!(quarter_turns(45.0, 25.0), None);
        assert_eq!(quarter_turns(130.0, 25.0), None);
        assert_eq!(quarter_turns(f64::NAN, 25.0), None);
    }

    #[test]
    fn the_pose_is_kept_while_a_marker_is_covered_and_follows_a_moved_mat() {
        let mat = MatLayout::builtin(GameId::Yomi).unwrap();
        let cam = Homography::similarity(2.5, 0.02, (80.0, 40.0));
        let seen = |h: &Homography, skip: Option<usize>| -> Vec<(Corner, Point)> {
            Corner::ALL
                .iter()
                .enumerate()
                .filter(|(i, _)| Some(*i) != skip)
                .map(|(i, c)| (*c, h.map(mat.markers[i]).unwrap()))
                .collect()
        };
        let mut w = MatWatch::new(mat.clone(), MatWatchConfig::default());
        assert_eq!(w.update(0.0, &seen(&cam, None)), Some(MatChange::Found));
        // A hand over the top-left marker: kept.
        for i in 1..20 {
            assert_eq!(w.update(f64::from(i) * 0.1, &seen(&cam, Some(0))), None);
        }
        assert!(w.found());
        // The mat is nudged while that marker is still covered: follows with three markers.
        let moved = Homography::similarity(2.5, 0.03, (95.0, 52.0));
        assert_eq!(w.update(2.0, &seen(&moved, Some(0))), None);
        let pose = w.pose().unwrap();
        let p = pose.to_mat(moved.map((350.0, 200.0)).unwrap()).unwrap();
        assert!(dist(p, (350.0, 200.0)) < 0.01, "{p:?}");
        // Everything covered for long: lost, then found again.
        let mut lost = None;
        for i in 0..40 {
            if let Some(c) = w.update(2.1 + f64::from(i) * 0.1, &[]) {
                lost = Some(c);
                break;
            }
        }
        assert!(
            matches!(lost, Some(MatChange::Lost(ref m)) if m.len() == 4),
            "{lost:?}"
        );
        assert_eq!(w.update(7.0, &seen(&moved, None)), Some(MatChange::Found));
    }
}
