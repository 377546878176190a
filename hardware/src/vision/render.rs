//! Synthetic table frames: tagged cards, mat corner markers and hands composed onto a play mat
//! as a camera above it would see them, with the truth (every code's text and corners in frame
//! pixels) so tests and benchmarks know what a detector should find.
//!
//! The camera pose is a [`Homography`] from mat millimetres to frame pixels
//! ([`Camera::overhead`] builds one with a perspective tilt and a roll). Cards lie in quarter
//! turns plus a small jitter; each carries a sticker with its QR code (the smallest of
//! [`TAG_CODES`] that holds it, as printed by `tableside tags`; corner markers version 2), a
//! label and some card art around it. The look adds a
//! lighting gradient, vignetting, lens blur and sensor noise; hands are opaque occluders.
//!
//! ```
//! use hardware::vision::render::{Camera, Scene, Symbol, Card, render};
//! let mut scene = Scene::empty((300.0, 200.0));
//! scene.cards.push(Card::tagged(Symbol::tag("TS1:J:JD07:2:P")?, (150.0, 100.0), 1, 2.0));
//! let camera = Camera::overhead(640, 480, scene.mat_mm, 0.03, 0.05, 1.0);
//! let frame = render(&scene, &camera, 0);
//! assert_eq!(frame.truth.len(), 1);
//! assert_eq!(frame.truth[0].text, "TS1:J:JD07:2:P");
//! # Ok::<(), hardware::vision::VisionError>(())
//! ```

use super::VisionError;
use super::geometry::{Homography, Point};
use super::mat::{MatLayout, Rect, Zone, ZoneId};
use image::GrayImage;
use qrcode::{Color, EcLevel, QrCode, Version};

/// A card's size (width, height) in mm, upright.
pub const CARD_MM: (f64, f64) = (63.0, 88.0);
/// The quiet zone printed around every code, in modules.
pub const QUIET_ZONE: f64 = 4.0;

/// A QR symbol: its text and its modules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symbol {
    /// The encoded text.
    pub text: String,
    size: usize,
    dark: Vec<bool>,
}

/// The codes a card tag is printed as, smallest first: version 1 (21 modules) at error
/// correction Q (a quarter of the code may be lost; 16 characters of a tag), version 1 at M
/// (15 %; 20 characters), version 2 (25 modules) at Q (29 characters: every tag). A sheet of
/// tags takes the first that holds every tag on it (`tableside tags`); a smaller code has
/// larger modules at the same printed size, so it reads from further away.
pub const TAG_CODES: [(i16, EcLevel); 3] = [(1, EcLevel::Q), (1, EcLevel::M), (2, EcLevel::Q)];

/// The code mat corner markers are printed as: version 2 at level Q (25 modules; the mat
/// layouts' marker margins count these).
pub const MARKER_CODE: (i16, EcLevel) = (2, EcLevel::Q);

/// The first of [`TAG_CODES`] that holds every one of `texts` (`None` if even the last does
/// not: a text longer than any tag).
pub fn tag_code_for<'a>(
    texts: impl IntoIterator<Item = &'a str> + Clone,
) -> Option<(i16, EcLevel)> {
    TAG_CODES.into_iter().find(|(v, level)| {
        texts
            .clone()
            .into_iter()
            .all(|t| QrCode::with_version(t.as_bytes(), Version::Normal(*v), *level).is_ok())
    })
}

impl Symbol {
    /// A card tag as `tableside tags` prints it alone: the smallest of [`TAG_CODES`] that
    /// holds it (version 1 for every tag of up to 16 characters, e.g. `TS1:J:JD07:2:P`).
    ///
    /// # Errors
    /// [`VisionError::Encode`] if the text does not fit.
    pub fn tag(text: &str) -> Result<Symbol, VisionError> {
        let (v, level) = tag_code_for([text])
            .ok_or_else(|| VisionError::Encode(format!("`{text}` is longer than any tag")))?;
        Symbol::with_code(text, v, level)
    }

    /// A mat corner marker as `tableside tags` prints it: version 2, level Q.
    ///
    /// # Errors
    /// [`VisionError::Encode`] if the text does not fit.
    pub fn marker(text: &str) -> Result<Symbol, VisionError> {
        Symbol::with_code(text, MARKER_CODE.0, MARKER_CODE.1)
    }

    /// `text` as a code of this version and error correction level.
    ///
    /// # Errors
    /// [`VisionError::Encode`] if the text does not fit.
    pub fn with_code(text: &str, version: i16, level: EcLevel) -> Result<Symbol, VisionError> {
        let code = QrCode::with_version(text.as_bytes(), Version::Normal(version), level)
            .map_err(|e| VisionError::Encode(format!("`{text}`: {e}")))?;
        Ok(Symbol::from_code(text, &code))
    }

    /// Any other code (a URL, another app's code): the smallest version at level M.
    ///
    /// # Errors
    /// [`VisionError::Encode`] if the text does not fit any version.
    pub fn any(text: &str) -> Result<Symbol, VisionError> {
        let code = QrCode::with_error_correction_level(text.as_bytes(), EcLevel::M)
            .map_err(|e| VisionError::Encode(format!("`{text}`: {e}")))?;
        Ok(Symbol::from_code(text, &code))
    }

    fn from_code(text: &str, code: &QrCode) -> Symbol {
        Symbol {
            text: text.to_owned(),
            size: code.width(),
            dark: code.to_colors().iter().map(|c| *c == Color::Dark).collect(),
        }
    }

    /// Modules across (25 for version 2).
    pub fn modules(&self) -> usize {
        self.size
    }

    /// Whether module (`x`, `y`) is dark; outside the symbol is light.
    pub fn is_dark(&self, x: usize, y: usize) -> bool {
        x < self.size && y < self.size && self.dark.get(y * self.size + x).copied().unwrap_or(false)
    }
}

/// A card lying on the mat.
#[derive(Clone, Debug, PartialEq)]
pub struct Card {
    /// The code on its sticker (`None`: an untagged card).
    pub symbol: Option<Symbol>,
    /// Where its centre lies, in mat mm.
    pub center_mm: Point,
    /// Quarter turns clockwise from upright (0–3).
    pub quarter_turns: u8,
    /// A small extra rotation in degrees (cards are never placed exactly square).
    pub jitter_deg: f64,
    /// The QR symbol's width in mm (without quiet zone).
    pub tag_mm: f64,
    /// Seeds the card art around the sticker.
    pub art_seed: u64,
}

impl Card {
    /// A card with a 36 mm tag (the size for a 1920 × 1080 camera over a 700 mm mat).
    pub fn tagged(symbol: Symbol, center_mm: Point, quarter_turns: u8, jitter_deg: f64) -> Card {
        Card {
            art_seed: symbol
                .text
                .bytes()
                .fold(7u64, |h, b| h.wrapping_mul(31).wrapping_add(u64::from(b))),
            symbol: Some(symbol),
            center_mm,
            quarter_turns,
            jitter_deg,
            tag_mm: 36.0,
        }
    }

    fn angle(&self) -> f64 {
        (f64::from(self.quarter_turns % 4) * 90.0 + self.jitter_deg).to_radians()
    }
}

/// A code printed on its own white square, lying flat on the mat (a mat corner marker, or a
/// foreign code such as a URL on a flyer).
#[derive(Clone, Debug, PartialEq)]
pub struct Marker {
    /// The code.
    pub symbol: Symbol,
    /// Where its centre lies, in mat mm.
    pub center_mm: Point,
    /// The symbol's width in mm (without quiet zone).
    pub size_mm: f64,
    /// Rotation in degrees, clockwise.
    pub angle_deg: f64,
}

/// A hand (with its arm) over the mat: an opaque occluder.
#[derive(Clone, Debug, PartialEq)]
pub struct Hand {
    /// The palm's centre, in mat mm.
    pub at_mm: Point,
    /// Direction the fingers point, degrees clockwise from mat "up" (the arm trails behind).
    pub angle_deg: f64,
    /// Size factor (1.0: an adult hand, palm about 90 mm wide).
    pub scale: f64,
}

/// A soft shadow cast on the table (a player leaning over it, a lamp blocked): the light
/// under it falls by `depth`, fading out over its outer `softness` fraction.
#[derive(Clone, Debug, PartialEq)]
pub struct Shadow {
    /// Its centre, in mat mm.
    pub at_mm: Point,
    /// Half-axes of the ellipse, in mm.
    pub radii_mm: Point,
    /// The fraction of the light it takes away at its core (0.5: half as bright).
    pub depth: f64,
    /// The outer fraction of the ellipse over which it fades out (0: a hard edge, 1: no core).
    pub softness: f64,
}

impl Shadow {
    /// How much light is left at mat point `p` (1: untouched).
    fn light_at(&self, p: Point) -> f64 {
        let (rx, ry) = (self.radii_mm.0.max(1e-3), self.radii_mm.1.max(1e-3));
        let d = (((p.0 - self.at_mm.0) / rx).powi(2) + ((p.1 - self.at_mm.1) / ry).powi(2)).sqrt();
        if d >= 1.0 {
            return 1.0;
        }
        let soft = self.softness.clamp(0.0, 1.0);
        let core = 1.0 - soft;
        let strength = if d <= core || soft <= 0.0 {
            1.0
        } else {
            let t = (1.0 - d) / soft;
            t * t * (3.0 - 2.0 * t)
        };
        1.0 - self.depth.clamp(0.0, 1.0) * strength
    }
}

/// How the frame looks: light, optics and sensor.
#[derive(Clone, Debug, PartialEq)]
pub struct Look {
    /// Gaussian blur sigma in pixels (focus, motion); 0 for none.
    pub blur_px: f64,
    /// Sensor noise, standard deviation in grey levels.
    pub noise: f64,
    /// Light falling off from left to right: 0.3 means the right edge is 30 % darker.
    pub light_gradient: f64,
    /// Corners darker than the centre by this fraction.
    pub vignette: f64,
    /// Seeds the noise (each frame adds its sequence number).
    pub seed: u64,
    /// The whole picture shifted by this many pixels: the camera shaken (a bump of the table)
    /// or moved.
    pub shift_px: Point,
    /// Overall brightness (1: as measured; an exposure change or a cloud moves it).
    pub exposure: f64,
}

impl Default for Look {
    fn default() -> Self {
        Look {
            blur_px: 0.7,
            noise: 4.0,
            light_gradient: 0.25,
            vignette: 0.15,
            seed: 1,
            shift_px: (0.0, 0.0),
            exposure: 1.0,
        }
    }
}

/// What lies on the table.
#[derive(Clone, Debug, PartialEq)]
pub struct Scene {
    /// The mat's size (width, height) in mm.
    pub mat_mm: Point,
    /// Codes printed on the mat, under the cards (corner markers, flyers).
    pub markers: Vec<Marker>,
    /// Cards, in the order they were put down (later ones on top).
    pub cards: Vec<Card>,
    /// Hands over everything.
    pub hands: Vec<Hand>,
    /// Shadows on the table (over the mat, the cards and the hands alike).
    pub shadows: Vec<Shadow>,
    /// Light, optics and sensor.
    pub look: Look,
}

impl Scene {
    /// A bare mat.
    pub fn empty(mat_mm: Point) -> Scene {
        Scene {
            mat_mm,
            markers: Vec::new(),
            cards: Vec::new(),
            hands: Vec::new(),
            shadows: Vec::new(),
            look: Look::default(),
        }
    }
}

/// Where the camera is: frame size and the map from mat mm to frame pixels.
#[derive(Clone, Debug, PartialEq)]
pub struct Camera {
    /// Frame width in pixels.
    pub width: u32,
    /// Frame height in pixels.
    pub height: u32,
    /// Mat millimetres to frame pixels.
    pub mat_to_px: Homography,
}

impl Camera {
    /// A camera above the middle of a mat of `mat_mm`: the mat fills the frame but for
    /// `margin` (a fraction of the frame on each side); `tilt` narrows the far (top) edge by
    /// that fraction, as a camera looking down at a slant sees it; `roll_deg` turns the image.
    pub fn overhead(
        width: u32,
        height: u32,
        mat_mm: Point,
        margin: f64,
        tilt: f64,
        roll_deg: f64,
    ) -> Camera {
        let (w, h) = (f64::from(width), f64::from(height));
        let scale =
            ((w * (1.0 - 2.0 * margin)) / mat_mm.0).min((h * (1.0 - 2.0 * margin)) / mat_mm.1);
        let (hw, hh) = (mat_mm.0 * scale / 2.0, mat_mm.1 * scale / 2.0);
        let inset = hw * tilt;
        let quad = [(-hw + inset, -hh), (hw - inset, -hh), (hw, hh), (-hw, hh)];
        let roll = Homography::similarity(1.0, roll_deg.to_radians(), (w / 2.0, h / 2.0));
        let to = quad.map(|p| roll.map(p).unwrap_or(p));
        let from = [
            (0.0, 0.0),
            (mat_mm.0, 0.0),
            (mat_mm.0, mat_mm.1),
            (0.0, mat_mm.1),
        ];
        let mat_to_px = Homography::from_points(from, to).unwrap_or(Homography::IDENTITY);
        Camera {
            width,
            height,
            mat_to_px,
        }
    }

    /// Pixels per millimetre at the mat's centre (horizontally).
    pub fn px_per_mm(&self, mat_mm: Point) -> f64 {
        let c = (mat_mm.0 / 2.0, mat_mm.1 / 2.0);
        match (self.mat_to_px.map(c), self.mat_to_px.map((c.0 + 1.0, c.1))) {
            (Some(a), Some(b)) => ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt(),
            _ => 0.0,
        }
    }
}

/// One code in a rendered frame, as the detector should report it.
#[derive(Clone, Debug, PartialEq)]
pub struct Truth {
    /// The code's text.
    pub text: String,
    /// The symbol's outer corners in frame pixels: top left, top right, bottom right, bottom
    /// left, in the symbol's own orientation (top left is the corner between the finders).
    pub corners: [(f32, f32); 4],
    /// Fraction of the symbol hidden by a hand or a card on top (0 to 1).
    pub covered: f32,
    /// Whether the whole symbol is inside the frame.
    pub in_frame: bool,
}

impl Truth {
    /// Whether a reader can be expected to find it: in the frame and not covered at all.
    pub fn readable(&self) -> bool {
        self.in_frame && self.covered == 0.0
    }
}

/// A rendered frame and what is in it.
#[derive(Clone, Debug)]
pub struct Rendered {
    /// The frame.
    pub image: GrayImage,
    /// Every code in the scene, sorted by text.
    pub truth: Vec<Truth>,
}

/// Renders `scene` as `camera` sees it; `frame` varies the sensor noise.
pub fn render(scene: &Scene, camera: &Camera, frame: u64) -> Rendered {
    let clean = render_clean(scene, camera);
    Rendered {
        image: add_noise(
            &clean,
            camera,
            scene.look.noise,
            scene.look.seed.wrapping_add(frame),
        ),
        truth: clean.truth.clone(),
    }
}

/// A noiseless frame (light, blur applied), kept so a still scene renders fast.
#[derive(Clone, Debug)]
pub(crate) struct Clean {
    pixels: Vec<f32>,
    pub(crate) truth: Vec<Truth>,
}

pub(crate) fn add_noise(clean: &Clean, camera: &Camera, sigma: f64, seed: u64) -> GrayImage {
    let mut rng = SplitMix(seed ^ 0x5DEE_CE66_D1CE_4E5B);
    let sigma = sigma as f32 * 1.732;
    let data: Vec<u8> = clean
        .pixels
        .iter()
        .map(|&v| {
            let r = rng.next();
            // Sum of four uniforms: close to normal, variance 4/12.
            let u = ((r & 0xFFFF) + ((r >> 16) & 0xFFFF) + ((r >> 32) & 0xFFFF) + (r >> 48)) as f32
                / 65535.0
                - 2.0;
            (v + u * sigma).round().clamp(0.0, 255.0) as u8
        })
        .collect();
    GrayImage::from_raw(camera.width, camera.height, data)
        .unwrap_or_else(|| GrayImage::new(camera.width, camera.height))
}

/// What an item on the mat is.
enum Kind<'a> {
    Marker(&'a Marker),
    Card(&'a Card),
    Hand(&'a Hand),
}

struct Item<'a> {
    kind: Kind<'a>,
    /// Mat mm → the item's own mm (origin at its centre, upright).
    from_mat: Homography,
    /// Item mm → mat mm.
    to_mat: Homography,
    /// Local bounding box: x0, y0, x1, y1.
    local_box: [f64; 4],
}

fn sticker_geometry(card: &Card) -> Option<(f64, f64, f64, f64)> {
    // (symbol left, symbol top, module mm, sticker height) in card mm.
    let symbol = card.symbol.as_ref()?;
    let n = symbol.modules() as f64;
    let module = card.tag_mm / n;
    let sticker_w = (n + 2.0 * QUIET_ZONE) * module;
    let sticker_h = sticker_w + 9.0;
    let top = -CARD_MM.1 / 2.0 + STICKER_TOP_MM;
    Some((
        -sticker_w / 2.0 + QUIET_ZONE * module,
        top + QUIET_ZONE * module,
        module,
        sticker_h,
    ))
}

impl<'a> Item<'a> {
    fn new(kind: Kind<'a>) -> Item<'a> {
        let (center, angle, local_box) = match &kind {
            Kind::Marker(m) => {
                let half = m.size_mm * (m.symbol.modules() as f64 + 2.0 * QUIET_ZONE)
                    / m.symbol.modules() as f64
                    / 2.0;
                (
                    m.center_mm,
                    m.angle_deg.to_radians(),
                    [-half, -half, half, half],
                )
            }
            Kind::Card(c) => {
                let (hw, hh) = (CARD_MM.0 / 2.0, CARD_MM.1 / 2.0);
                let mut b = [-hw, -hh, hw, hh];
                if let Some((sx, _, module, _)) = sticker_geometry(c) {
                    let left = sx - QUIET_ZONE * module;
                    b[0] = b[0].min(left);
                    b[2] = b[2].max(-left);
                }
                (c.center_mm, c.angle(), b)
            }
            Kind::Hand(h) => {
                let s = h.scale;
                (
                    h.at_mm,
                    h.angle_deg.to_radians(),
                    [-95.0 * s, -130.0 * s, 95.0 * s, 700.0 * s],
                )
            }
        };
        let to_mat = Homography::similarity(1.0, angle, center);
        let from_mat = to_mat.inverse().unwrap_or(Homography::IDENTITY);
        Item {
            kind,
            from_mat,
            to_mat,
            local_box,
        }
    }

    /// The grey level at local point `p`, or `None` outside the item.
    fn shade(&self, p: Point) -> Option<f32> {
        let b = &self.local_box;
        if p.0 < b[0] || p.0 > b[2] || p.1 < b[1] || p.1 > b[3] {
            return None;
        }
        match &self.kind {
            Kind::Marker(m) => {
                let n = m.symbol.modules() as f64;
                let module = m.size_mm / n;
                Some(symbol_shade(
                    &m.symbol,
                    (p.0 / module + n / 2.0, p.1 / module + n / 2.0),
                ))
            }
            Kind::Card(c) => card_shade(c, p),
            Kind::Hand(h) => hand_shade(h, p),
        }
    }
}

const PAPER: f32 = 232.0;
const INK: f32 = 28.0;

fn symbol_shade(symbol: &Symbol, m: Point) -> f32 {
    if m.0 >= 0.0 && m.1 >= 0.0 && symbol.is_dark(m.0 as usize, m.1 as usize) {
        INK
    } else {
        PAPER
    }
}

fn card_shade(card: &Card, p: Point) -> Option<f32> {
    if let Some((sx, sy, module, sticker_h)) = sticker_geometry(card) {
        let q = QUIET_ZONE * module;
        let (left, top) = (sx - q, sy - q);
        if p.0 >= left && p.0 <= -left && p.1 >= top && p.1 <= top + sticker_h {
            if let Some(symbol) = &card.symbol {
                let n = symbol.modules() as f64;
                let m = ((p.0 - sx) / module, (p.1 - sy) / module);
                if m.0 >= 0.0 && m.1 >= 0.0 && m.0 < n && m.1 < n {
                    return Some(symbol_shade(symbol, m));
                }
            }
            // The label: two lines of "text" under the code.
            let label_top = top + sticker_h - 8.5;
            let line = (p.1 - label_top) / 3.6;
            if (0.0..2.0).contains(&line) && line.fract() < 0.6 && p.0.abs() < -left - 3.0 {
                let cell = ((p.0 + 100.0) / 1.8) as u64;
                if hash01(card.art_seed ^ (line as u64 * 977), cell, 3) > 0.35 {
                    return Some(60.0);
                }
            }
            return Some(PAPER);
        }
    }
    let (hw, hh) = (CARD_MM.0 / 2.0, CARD_MM.1 / 2.0);
    if p.0.abs() > hw || p.1.abs() > hh {
        return None;
    }
    // A dark frame, then art: smooth blobs with some hard edges.
    if p.0.abs() > hw - 2.5 || p.1.abs() > hh - 2.5 {
        return Some(55.0);
    }
    let v = value_noise(card.art_seed, (p.0 + 50.0) / 7.0, (p.1 + 50.0) / 7.0);
    let w = value_noise(
        card.art_seed ^ 0xABCD,
        (p.0 + 50.0) / 2.5,
        (p.1 + 50.0) / 2.5,
    );
    let shade = if w > 0.72 { 35.0 } else { 70.0 + 150.0 * v };
    Some(shade as f32)
}

fn hand_shade(hand: &Hand, p: Point) -> Option<f32> {
    let s = hand.scale;
    let (x, y) = (p.0 / s, p.1 / s);
    let skin = 168.0 + 18.0 * (value_noise(99, x / 25.0, y / 25.0) - 0.5);
    // Palm.
    if (x / 45.0).powi(2) + (y / 52.0).powi(2) <= 1.0 {
        return Some(skin as f32);
    }
    let capsule = |a: Point, b: Point, r: f64| -> bool {
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let t = (((x - a.0) * dx + (y - a.1) * dy) / (dx * dx + dy * dy)).clamp(0.0, 1.0);
        let (cx, cy) = (a.0 + t * dx - x, a.1 + t * dy - y);
        cx * cx + cy * cy <= r * r
    };
    let fingers = [(-30.0, 62.0), (-10.0, 75.0), (10.0, 72.0), (30.0, 58.0)];
    for (fx, len) in fingers {
        if capsule((fx, -35.0), (fx * 1.15, -35.0 - len), 8.5) {
            return Some((skin - 6.0) as f32);
        }
    }
    if capsule((35.0, 5.0), (80.0, -40.0), 10.0) || capsule((0.0, 30.0), (0.0, 690.0), 38.0) {
        return Some((skin - 10.0) as f32);
    }
    None
}

/// The mat itself: a dark cloth with a faint texture; the table around it is darker.
fn background(scene: &Scene, p: Point) -> f32 {
    if p.0 < 0.0 || p.1 < 0.0 || p.0 > scene.mat_mm.0 || p.1 > scene.mat_mm.1 {
        return 45.0;
    }
    (92.0 + 16.0 * (value_noise(5, p.0 / 20.0, p.1 / 20.0) - 0.5)) as f32
}

pub(crate) fn render_clean(scene: &Scene, camera: &Camera) -> Clean {
    let shifted;
    let camera = if scene.look.shift_px == (0.0, 0.0) {
        camera
    } else {
        let (dx, dy) = scene.look.shift_px;
        shifted = Camera {
            mat_to_px: camera
                .mat_to_px
                .then(&Homography::similarity(1.0, 0.0, (dx, dy))),
            ..camera.clone()
        };
        &shifted
    };
    let mut items: Vec<Item> = Vec::new();
    items.extend(scene.markers.iter().map(|m| Item::new(Kind::Marker(m))));
    items.extend(scene.cards.iter().map(|c| Item::new(Kind::Card(c))));
    items.extend(scene.hands.iter().map(|h| Item::new(Kind::Hand(h))));
    let (w, h) = (camera.width as usize, camera.height as usize);
    let px_to_mat = camera.mat_to_px.inverse().unwrap_or(Homography::IDENTITY);

    // Bin the items into tiles so each pixel looks at the few that may cover it.
    const TILE: usize = 32;
    let (tw, th) = (w.div_ceil(TILE), h.div_ceil(TILE));
    let mut tiles: Vec<Vec<usize>> = vec![Vec::new(); tw * th];
    for (i, item) in items.iter().enumerate() {
        let b = item.local_box;
        let corners = [(b[0], b[1]), (b[2], b[1]), (b[2], b[3]), (b[0], b[3])];
        let px: Vec<Point> = corners
            .iter()
            .filter_map(|&c| item.to_mat.map(c).and_then(|m| camera.mat_to_px.map(m)))
            .collect();
        let x0 = px
            .iter()
            .map(|p| p.0)
            .fold(f64::INFINITY, f64::min)
            .max(0.0);
        let x1 = px
            .iter()
            .map(|p| p.0)
            .fold(f64::NEG_INFINITY, f64::max)
            .min(w as f64 - 1.0);
        let y0 = px
            .iter()
            .map(|p| p.1)
            .fold(f64::INFINITY, f64::min)
            .max(0.0);
        let y1 = px
            .iter()
            .map(|p| p.1)
            .fold(f64::NEG_INFINITY, f64::max)
            .min(h as f64 - 1.0);
        if x0 > x1 || y0 > y1 {
            continue;
        }
        for ty in (y0 as usize / TILE)..=(y1 as usize / TILE).min(th - 1) {
            for tx in (x0 as usize / TILE)..=(x1 as usize / TILE).min(tw - 1) {
                tiles[ty * tw + tx].push(i);
            }
        }
    }

    let shade_at = |px: Point, list: &[usize]| -> f32 {
        let Some(m) = px_to_mat.map(px) else {
            return 0.0;
        };
        for &i in list.iter().rev() {
            let item = &items[i];
            if let Some(local) = item.from_mat.map(m)
                && let Some(s) = item.shade(local)
            {
                return s;
            }
        }
        background(scene, m)
    };

    let mut pixels = vec![0f32; w * h];
    const SUB: [f64; 2] = [0.25, 0.75];
    for y in 0..h {
        for x in 0..w {
            let list = &tiles[(y / TILE) * tw + x / TILE];
            let mut sum = 0.0;
            for sy in SUB {
                for sx in SUB {
                    sum += shade_at((x as f64 + sx, y as f64 + sy), list);
                }
            }
            pixels[y * w + x] = sum / 4.0;
        }
    }
    // Shadows: less light where they fall (on whatever lies there).
    if !scene.shadows.is_empty() {
        for y in 0..h {
            for x in 0..w {
                if let Some(m) = px_to_mat.map((x as f64 + 0.5, y as f64 + 0.5)) {
                    let light: f64 = scene.shadows.iter().map(|s| s.light_at(m)).product();
                    if light < 1.0 {
                        pixels[y * w + x] *= light as f32;
                    }
                }
            }
        }
    }

    // Light: a gradient from left to right and a vignette.
    let look = &scene.look;
    for y in 0..h {
        for x in 0..w {
            let fx = x as f64 / w as f64 - 0.5;
            let fy = y as f64 / h as f64 - 0.5;
            let gain = look.exposure
                * (1.0 + look.light_gradient * (0.5 - (fx + 0.5)))
                * (1.0 - look.vignette * 2.0 * (fx * fx + fy * fy));
            pixels[y * w + x] *= gain as f32;
        }
    }
    if look.blur_px > 0.0 {
        gaussian_blur(&mut pixels, w, h, look.blur_px);
    }

    let truth = truth_of(scene, camera, &items);
    Clean { pixels, truth }
}

fn truth_of(scene: &Scene, camera: &Camera, items: &[Item]) -> Vec<Truth> {
    let _ = scene;
    let mut truth = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let (symbol, left, top, module) = match &item.kind {
            Kind::Marker(m) => {
                let n = m.symbol.modules() as f64;
                (&m.symbol, -m.size_mm / 2.0, -m.size_mm / 2.0, m.size_mm / n)
            }
            Kind::Card(c) => match (&c.symbol, sticker_geometry(c)) {
                (Some(s), Some((sx, sy, module, _))) => (s, sx, sy, module),
                _ => continue,
            },
            Kind::Hand(_) => continue,
        };
        let n = symbol.modules() as f64;
        let side = n * module;
        let local = [
            (left, top),
            (left + side, top),
            (left + side, top + side),
            (left, top + side),
        ];
        let to_px = |p: Point| item.to_mat.map(p).and_then(|m| camera.mat_to_px.map(m));
        let corners = local.map(|p| to_px(p).unwrap_or((-1.0, -1.0)));
        let in_frame = corners.iter().all(|p| {
            p.0 >= 0.0
                && p.1 >= 0.0
                && p.0 <= f64::from(camera.width)
                && p.1 <= f64::from(camera.height)
        });
        // Covered: sample the symbol and ask the items above it.
        const S: usize = 9;
        let mut hidden = 0;
        for sy in 0..S {
            for sx in 0..S {
                let p = (
                    left + side * (sx as f64 + 0.5) / S as f64,
                    top + side * (sy as f64 + 0.5) / S as f64,
                );
                let Some(m) = item.to_mat.map(p) else {
                    continue;
                };
                let above = items[i + 1..]
                    .iter()
                    .any(|o| o.from_mat.map(m).and_then(|l| o.shade(l)).is_some());
                if above {
                    hidden += 1;
                }
            }
        }
        truth.push(Truth {
            text: symbol.text.clone(),
            corners: corners.map(|p| (p.0 as f32, p.1 as f32)),
            covered: hidden as f32 / (S * S) as f32,
            in_frame,
        });
    }
    truth.sort_by(|a, b| {
        a.text
            .cmp(&b.text)
            .then(a.corners[0].0.total_cmp(&b.corners[0].0))
    });
    truth
}

fn gaussian_blur(pixels: &mut [f32], w: usize, h: usize, sigma: f64) {
    let r = (sigma * 3.0).ceil() as usize;
    let mut kernel: Vec<f32> = (0..=2 * r)
        .map(|i| {
            let d = i as f64 - r as f64;
            (-(d * d) / (2.0 * sigma * sigma)).exp() as f32
        })
        .collect();
    let total: f32 = kernel.iter().sum();
    kernel.iter_mut().for_each(|k| *k /= total);
    let mut tmp = vec![0f32; pixels.len()];
    for y in 0..h {
        let row = &pixels[y * w..(y + 1) * w];
        for x in 0..w {
            let mut acc = 0.0;
            for (k, kv) in kernel.iter().enumerate() {
                let xx = (x + k).saturating_sub(r).min(w - 1);
                acc += row[xx] * kv;
            }
            tmp[y * w + x] = acc;
        }
    }
    for y in 0..h {
        for x in 0..w {
            let mut acc = 0.0;
            for (k, kv) in kernel.iter().enumerate() {
                let yy = (y + k).saturating_sub(r).min(h - 1);
                acc += tmp[yy * w + x] * kv;
            }
            pixels[y * w + x] = acc;
        }
    }
}

/// A small deterministic generator (SplitMix64), so frames are the same on every machine.
pub(crate) struct SplitMix(pub(crate) u64);

impl SplitMix {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    pub(crate) fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

fn hash01(seed: u64, i: u64, j: u64) -> f64 {
    let mut r =
        SplitMix(seed ^ i.wrapping_mul(0x9E37_79B9) ^ j.wrapping_mul(0x85EB_CA6B).rotate_left(17));
    r.unit()
}

fn value_noise(seed: u64, x: f64, y: f64) -> f64 {
    let (xf, yf) = (x.floor(), y.floor());
    let (i, j) = (xf as i64 as u64, yf as i64 as u64);
    let (tx, ty) = (x - xf, y - yf);
    let (sx, sy) = (tx * tx * (3.0 - 2.0 * tx), ty * ty * (3.0 - 2.0 * ty));
    let a = hash01(seed, i, j);
    let b = hash01(seed, i.wrapping_add(1), j);
    let c = hash01(seed, i, j.wrapping_add(1));
    let d = hash01(seed, i.wrapping_add(1), j.wrapping_add(1));
    (a * (1.0 - sx) + b * sx) * (1.0 - sy) + (c * (1.0 - sx) + d * sx) * sy
}

/// A tabletop as the benches and tests use it: a 700 × 400 mm mat, its four corner markers
/// (50 mm, `TS1:M:…`), and `cards` tagged cards (tags `TS1:J:…`, `tag_mm` wide) on a grid of
/// 6 × 4 places (91 × 100 mm) with random quarter turns and a few degrees of jitter.
///
/// # Errors
/// [`VisionError::Encode`] if a tag does not encode (it always does).
pub fn table_scene(cards: usize, tag_mm: f64, seed: u64) -> Result<Scene, VisionError> {
    let mut scene = Scene::empty((700.0, 400.0));
    let mut rng = SplitMix(seed);
    for (i, corner) in cards::tags::Corner::ALL.into_iter().enumerate() {
        let (x, y) = [(40.0, 40.0), (660.0, 40.0), (660.0, 360.0), (40.0, 360.0)][i];
        scene.markers.push(Marker {
            symbol: Symbol::marker(&corner.encode())?,
            center_mm: (x, y),
            size_mm: 50.0,
            angle_deg: 0.0,
        });
    }
    for i in 0..cards {
        scene.cards.push(table_card(i, tag_mm, &mut rng)?);
    }
    Ok(scene)
}

/// The `i`-th card of [`table_scene`]'s grid (places 0–23; later ones wrap around), with its tag
/// `TS1:J:C<i>:1:…`.
///
/// # Errors
/// [`VisionError::Encode`] if the tag does not encode.
pub fn table_card(
    i: usize,
    tag_mm: f64,
    rng_seed: &mut impl RandomSource,
) -> Result<Card, VisionError> {
    let tag = cards::tags::Tag {
        game: cards::core::GameId::Jaken,
        card: format!("C{i:02}"),
        copy: 1,
    };
    let text = tag
        .encode()
        .map_err(|e| VisionError::Encode(e.to_string()))?;
    let place = i % 24;
    let (col, row) = ((place % 6) as f64, (place / 6) as f64);
    let center = (122.0 + col * 91.0, 50.0 + row * 100.0);
    let mut card = Card::tagged(
        Symbol::tag(&text)?,
        center,
        (rng_seed.unit01() * 4.0) as u8,
        rng_seed.unit01() * 8.0 - 4.0,
    );
    card.center_mm.0 += rng_seed.unit01() * 8.0 - 4.0;
    card.center_mm.1 += rng_seed.unit01() * 8.0 - 4.0;
    card.tag_mm = tag_mm;
    Ok(card)
}

/// Something that gives uniform numbers in [0, 1) (the scene builders' randomness).
pub trait RandomSource {
    /// The next number.
    fn unit01(&mut self) -> f64;
}

impl RandomSource for SplitMix {
    fn unit01(&mut self) -> f64 {
        self.unit()
    }
}

/// A seeded [`RandomSource`] for scene builders.
pub fn seeded(seed: u64) -> impl RandomSource {
    SplitMix(seed)
}

/// Where a sticker goes on its card: centred across it, its top edge this far (mm) below the
/// card's top edge (as this renderer draws them and `tableside tags` says to stick them).
pub const STICKER_TOP_MM: f64 = 4.0;

/// From a card's tag centre to the card's centre, in mm towards the tag's bottom edge, for a
/// sticker stuck as [`STICKER_TOP_MM`] says with a version-1 code (21 modules: every tag of
/// up to 16 characters) `tag_mm` wide: the value for
/// [`super::tracker::TrackerConfig::card_offset_mm`]. See [`tag_to_card_mm_for`] for other
/// codes.
pub fn tag_to_card_mm(tag_mm: f64) -> f64 {
    tag_to_card_mm_for(tag_mm, 21)
}

/// [`tag_to_card_mm`] for a code of `modules` modules across (21 for version 1, 25 for
/// version 2): half the card's height, less the sticker's top margin, the quiet zone
/// ([`QUIET_ZONE`] modules) and half the code.
pub fn tag_to_card_mm_for(tag_mm: f64, modules: usize) -> f64 {
    let module = tag_mm / modules.max(1) as f64;
    CARD_MM.1 / 2.0 - STICKER_TOP_MM - QUIET_ZONE * module - tag_mm / 2.0
}

/// A bare mat of `layout`: its size and its four corner markers where the layout puts them.
///
/// # Errors
/// [`VisionError::Encode`] if a marker does not encode (it always does).
pub fn mat_scene(layout: &MatLayout) -> Result<Scene, VisionError> {
    let mut scene = Scene::empty(layout.size_mm);
    for corner in cards::tags::Corner::ALL {
        scene.markers.push(Marker {
            symbol: Symbol::marker(&corner.encode())?,
            center_mm: layout.marker(corner),
            size_mm: layout.marker_mm,
            angle_deg: 0.0,
        });
    }
    Ok(scene)
}

/// A card tagged `text` lying in `zone`: its centre at the zone's centre moved by `nudge_mm`,
/// turned `quarter_turns` clockwise relative to the mat plus `jitter_deg`.
///
/// # Errors
/// [`VisionError::Encode`] if the text does not fit a tag.
pub fn card_in_zone(
    zone: &Zone,
    text: &str,
    tag_mm: f64,
    quarter_turns: u8,
    jitter_deg: f64,
    nudge_mm: Point,
) -> Result<Card, VisionError> {
    let c = zone.rect.center();
    let mut card = Card::tagged(
        Symbol::tag(text)?,
        (c.0 + nudge_mm.0, c.1 + nudge_mm.1),
        quarter_turns % 4,
        jitter_deg,
    );
    card.tag_mm = tag_mm;
    Ok(card)
}

/// The mat rectangle a card covers (its turned outline, sticker included), grown by `margin`.
pub fn card_footprint(card: &Card, margin: f64) -> Rect {
    let a = card.angle();
    let (s, c) = (a.sin().abs(), a.cos().abs());
    let n = card.symbol.as_ref().map_or(25.0, |s| s.modules() as f64);
    let (w, h) = (
        CARD_MM.0.max(card.tag_mm * (n + 2.0 * QUIET_ZONE) / n),
        CARD_MM.1,
    );
    let (bw, bh) = (w * c + h * s, w * s + h * c);
    Rect {
        x: card.center_mm.0 - bw / 2.0 - margin,
        y: card.center_mm.1 - bh / 2.0 - margin,
        w: bw + 2.0 * margin,
        h: bh + 2.0 * margin,
    }
}

/// The frames of a hand putting `card` down on `scene`: the hand comes in from the nearest
/// edge of the mat over `frames_in` frames, the card appears under it (covered) at the next
/// frame, and the hand goes back out over `frames_out` frames. Returns one scene per frame
/// (`frames_in + 1 + frames_out`); the last one has the card and no hand.
pub fn place_by_hand(
    scene: &Scene,
    card: &Card,
    frames_in: usize,
    frames_out: usize,
) -> Vec<Scene> {
    by_hand(scene, card.center_mm, frames_in, 0, frames_out, |s| {
        s.cards.push(card.clone())
    })
}

/// The frames of a hand turning the `index`-th card of `scene` a quarter turn clockwise in
/// place, as [`place_by_hand`] puts one down: the turned card appears under the hand. `None`
/// if there is no such card.
pub fn turn_by_hand(
    scene: &Scene,
    index: usize,
    frames_in: usize,
    frames_out: usize,
) -> Option<Vec<Scene>> {
    let card = scene.cards.get(index)?;
    Some(by_hand(
        scene,
        card.center_mm,
        frames_in,
        0,
        frames_out,
        |s| {
            if let Some(c) = s.cards.get_mut(index) {
                c.quarter_turns = (c.quarter_turns + 1) % 4;
            }
        },
    ))
}

/// The frames of a hand taking the `index`-th card of `scene` away, as [`place_by_hand`]
/// puts one down: the hand comes in, the card is gone under it, the hand goes out with it.
/// `None` if there is no such card.
pub fn remove_by_hand(
    scene: &Scene,
    index: usize,
    frames_in: usize,
    frames_out: usize,
) -> Option<Vec<Scene>> {
    let card = scene.cards.get(index)?;
    Some(by_hand(
        scene,
        card.center_mm,
        frames_in,
        0,
        frames_out,
        |s| {
            s.cards.remove(index);
        },
    ))
}

/// The frames of a hand that comes in over `at` (mat mm) from the nearest edge, rests there
/// for `frames_rest` frames (covering what lies there) and goes out again, changing nothing.
pub fn rest_hand(
    scene: &Scene,
    at: Point,
    frames_in: usize,
    frames_rest: usize,
    frames_out: usize,
) -> Vec<Scene> {
    by_hand(scene, at, frames_in, frames_rest, frames_out, |_| {})
}

/// The frames of a soft shadow (a player leaning over the table) moving in a straight line
/// from `from` to `to` (mat mm) over `frames` frames, then gone.
pub fn passing_shadow(
    scene: &Scene,
    from: Point,
    to: Point,
    radii_mm: Point,
    depth: f64,
    frames: usize,
) -> Vec<Scene> {
    let mut out = Vec::new();
    for i in 0..frames {
        let t = if frames > 1 {
            i as f64 / (frames - 1) as f64
        } else {
            0.0
        };
        let mut s = scene.clone();
        s.shadows.push(Shadow {
            at_mm: (from.0 + (to.0 - from.0) * t, from.1 + (to.1 - from.1) * t),
            radii_mm,
            depth,
            softness: 0.6,
        });
        out.push(s);
    }
    out.push(scene.clone());
    out
}

/// The frames of a bump of the table shaking the camera: the picture jumps by up to
/// `amplitude_px` and swings back, smeared (motion blur) while it moves, over `frames` frames,
/// and ends `settle_px` away from where it was (0: the camera comes back to rest where it was).
pub fn table_bump(
    scene: &Scene,
    amplitude_px: f64,
    frames: usize,
    settle_px: Point,
    seed: u64,
) -> Vec<Scene> {
    let mut rng = SplitMix(seed ^ 0xB0B0);
    let dir = rng.unit() * std::f64::consts::TAU;
    let base = scene.look.shift_px;
    let mut out = Vec::new();
    for i in 0..frames {
        // A damped swing: amplitude × (−0.6)^i, drifting to the settled place.
        let t = (i + 1) as f64 / frames.max(1) as f64;
        let swing = amplitude_px * (-0.6f64).powi(i32::try_from(i).unwrap_or(i32::MAX));
        let mut s = scene.clone();
        s.look.shift_px = (
            base.0 + settle_px.0 * t + swing * dir.cos(),
            base.1 + settle_px.1 * t + swing * dir.sin(),
        );
        s.look.blur_px = scene.look.blur_px + swing.abs() * 0.35;
        out.push(s);
    }
    let mut rest = scene.clone();
    rest.look.shift_px = (base.0 + settle_px.0, base.1 + settle_px.1);
    out.push(rest);
    out
}

/// Whether a hand of `scene` covers any part of where `card` lies (or lay): a card taken away
/// counts as cleared from the first frame this is false.
pub fn hand_over_card(scene: &Scene, card: &Card) -> bool {
    let hands: Vec<Item> = scene
        .hands
        .iter()
        .map(|h| Item::new(Kind::Hand(h)))
        .collect();
    let place = Item::new(Kind::Card(card));
    let (hw, hh) = (CARD_MM.0 / 2.0, CARD_MM.1 / 2.0);
    (0..=6).any(|j| {
        (0..=6).any(|i| {
            let local = (-hw + hw * f64::from(i) / 3.0, -hh + hh * f64::from(j) / 3.0);
            place.to_mat.map(local).is_some_and(|m| {
                hands
                    .iter()
                    .any(|h| h.from_mat.map(m).and_then(|l| h.shade(l)).is_some())
            })
        })
    })
}

/// A hand comes in over `at`, `change` happens under it, it rests `rest` frames, it goes out.
fn by_hand(
    scene: &Scene,
    at: Point,
    frames_in: usize,
    rest: usize,
    frames_out: usize,
    change: impl FnOnce(&mut Scene),
) -> Vec<Scene> {
    let (w, h) = scene.mat_mm;
    let (x, y) = at;
    // The nearest edge: the hand comes from there, fingers pointing at the card.
    let edges = [
        (h - y, (x + 40.0, h + 260.0), 0.0f64),
        (y, (x - 40.0, -260.0), 180.0),
        (x, (-260.0, y - 40.0), 90.0),
        (w - x, (w + 260.0, y + 40.0), 270.0),
    ];
    let (_, start, angle) = edges
        .into_iter()
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .unwrap_or((0.0, (x, h + 260.0), 0.0));
    // The palm over the card's sticker, a little towards the arm.
    let a = angle.to_radians();
    let target = (x - 10.0 * a.sin(), y + 10.0 * a.cos());
    let hand_at = |t: f64| Hand {
        at_mm: (
            start.0 + (target.0 - start.0) * t,
            start.1 + (target.1 - start.1) * t,
        ),
        angle_deg: angle,
        scale: 1.0,
    };
    let mut out = Vec::new();
    let mut s = scene.clone();
    for i in 1..=frames_in {
        s.hands = vec![hand_at(i as f64 / (frames_in + 1) as f64)];
        out.push(s.clone());
    }
    change(&mut s);
    s.hands = vec![hand_at(1.0)];
    for _ in 0..=rest {
        out.push(s.clone());
    }
    for i in 1..=frames_out {
        let t = 1.0 - i as f64 / frames_out as f64;
        s.hands = if i == frames_out {
            Vec::new()
        } else {
            vec![hand_at(t)]
        };
        out.push(s.clone());
    }
    out
}

/// One card put down (or turned) in a [`table_video`].
#[derive(Clone, Debug, PartialEq)]
pub struct Placement {
    /// The card's tag text.
    pub payload: String,
    /// The zone it was put in.
    pub zone: ZoneId,
    /// Its quarter turns relative to the mat.
    pub quarter_turns: u8,
    /// Whether this is a card already down turned a quarter in place (else a new card).
    pub turn: bool,
    /// The frame at which it appears (under the hand), or is turned.
    pub frame: usize,
    /// Index of the game's video in the list given to [`table_video`].
    pub part: usize,
}

/// A card taken away by hand in a [`table_video_with`].
#[derive(Clone, Debug, PartialEq)]
pub struct Removal {
    /// The card's tag text.
    pub payload: String,
    /// The first frame after the hand has left (the card gone from the table).
    pub cleared_frame: usize,
    /// Index of the game's video in the list given.
    pub part: usize,
}

/// What a [`table_video_with`] did besides putting cards down (each a count, for reports).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DisturbanceLog {
    /// Shadows passed over the table.
    pub shadows: usize,
    /// Bumps of the table.
    pub bumps: usize,
    /// Hands rested on a card.
    pub rests: usize,
    /// Frames in which a hand rested on a card.
    pub rest_frames: usize,
}

/// A rendered table video script: scenes (one per frame) and what was put where.
#[derive(Clone, Debug)]
pub struct TableVideo {
    /// The frames' scenes.
    pub scenes: Vec<Scene>,
    /// Which layout each frame shows (an index into the layouts given).
    pub part_of_frame: Vec<usize>,
    /// The cards put down, in order.
    pub placements: Vec<Placement>,
    /// The cards taken away by hand, in order ([`table_video_with`]).
    pub removals: Vec<Removal>,
    /// The shadows, bumps and resting hands ([`table_video_with`]).
    pub disturbances: DisturbanceLog,
}

/// What happens at the table besides cards being put down (for [`table_video_with`]): after
/// every `n`-th card put down (0: never), while cards lie still.
#[derive(Clone, Debug, PartialEq)]
pub struct Disturbances {
    /// A player leans over the table: a soft shadow (a third to three fifths of the light)
    /// crosses the mat over 1.5 s.
    pub shadow_every: usize,
    /// The table is bumped: the camera shakes (6 to 12 px, smeared) for 0.4 s and comes to
    /// rest up to 1.5 px from where it was.
    pub bump_every: usize,
    /// A hand comes and rests on a card already down for `rest_frames` frames, then leaves.
    pub rest_every: usize,
    /// Frames a resting hand stays.
    pub rest_frames: usize,
    /// A hand takes a card already down away.
    pub remove_every: usize,
    /// Seeds where and how.
    pub seed: u64,
}

impl Default for Disturbances {
    /// None at all (as [`table_video`]).
    fn default() -> Self {
        Disturbances {
            shadow_every: 0,
            bump_every: 0,
            rest_every: 0,
            rest_frames: 40,
            remove_every: 0,
            seed: 7,
        }
    }
}

impl Disturbances {
    /// A busy table: a shadow after every 3rd card, a bump after every 4th, a hand resting
    /// 4 s on a card after every 5th, a card taken away after every 6th.
    pub fn busy_table() -> Disturbances {
        Disturbances {
            shadow_every: 3,
            bump_every: 4,
            rest_every: 5,
            rest_frames: 40,
            remove_every: 6,
            seed: 7,
        }
    }
}

/// Settings of [`table_video`].
#[derive(Clone, Debug, PartialEq)]
pub struct VideoPlan {
    /// Cards put down on each layout's mat.
    pub placements_per_mat: usize,
    /// At most this many cards lie on the mat at once; then the table is cleared.
    pub max_on_mat: usize,
    /// The tags' code width in mm.
    pub tag_mm: f64,
    /// Frames of the hand coming in, and going out.
    pub hand_frames: (usize, usize),
    /// Still frames after each placement.
    pub still_frames: usize,
    /// Still frames after the table is cleared (so the tracker reports the cards gone).
    pub clear_frames: usize,
    /// After every this many cards put down, a card already down is turned a quarter
    /// clockwise in place by hand (0: never).
    pub turn_every: usize,
    /// Seeds zones, rotations and jitter.
    pub seed: u64,
}

impl Default for VideoPlan {
    fn default() -> Self {
        VideoPlan {
            placements_per_mat: 40,
            max_on_mat: 10,
            tag_mm: 36.0,
            hand_frames: (4, 4),
            still_frames: 10,
            clear_frames: 30,
            turn_every: 0,
            seed: 1,
        }
    }
}

/// A video of cards being put down by hand into the zones of each layout's mat in turn (the
/// mat is swapped between layouts): into random zones where the card covers no other card and
/// no marker, with random quarter turns, a few degrees of jitter and a few mm off the zone's
/// centre. Each card's tag is `TS1:<game>:P<n>:1:<check>`, `n` counting all placements.
///
/// # Errors
/// [`VisionError::Encode`] if a tag does not encode.
pub fn table_video(layouts: &[MatLayout], plan: &VideoPlan) -> Result<TableVideo, VisionError> {
    table_video_with(layouts, plan, &Disturbances::default())
}

/// [`table_video`] with shadows, bumps of the table, hands resting on cards and cards taken
/// away by hand (`disturb`) between the placements, while cards lie still. With
/// [`Disturbances::default`] it is exactly [`table_video`].
///
/// # Errors
/// [`VisionError::Encode`] if a tag does not encode.
pub fn table_video_with(
    layouts: &[MatLayout],
    plan: &VideoPlan,
    disturb: &Disturbances,
) -> Result<TableVideo, VisionError> {
    let mut rng = SplitMix(plan.seed);
    let mut other = SplitMix(disturb.seed ^ 0xD157);
    let mut video = TableVideo {
        scenes: Vec::new(),
        part_of_frame: Vec::new(),
        placements: Vec::new(),
        removals: Vec::new(),
        disturbances: DisturbanceLog::default(),
    };
    let mut n = 0usize;
    for (part, layout) in layouts.iter().enumerate() {
        let bare = mat_scene(layout)?;
        let mut scene = bare.clone();
        let markers: Vec<Rect> = layout
            .markers
            .iter()
            .map(|m| {
                let half = layout.marker_mm * 33.0 / 25.0 / 2.0;
                Rect {
                    x: m.0 - half,
                    y: m.1 - half,
                    w: 2.0 * half,
                    h: 2.0 * half,
                }
            })
            .collect();
        let push = |video: &mut TableVideo, s: &Scene, count: usize| {
            for _ in 0..count {
                video.scenes.push(s.clone());
                video.part_of_frame.push(part);
            }
        };
        push(&mut video, &scene, 5);
        let mut placed = 0;
        let mut tries = 0;
        let mut misses = 0;
        while placed < plan.placements_per_mat && tries < 10_000 && !layout.zones.is_empty() {
            tries += 1;
            if scene.cards.len() >= plan.max_on_mat {
                // Clear the table and wait for the tracker to see it empty.
                scene = bare.clone();
                push(&mut video, &scene, plan.clear_frames);
            }
            let zone = &layout.zones
                [(rng.unit() * layout.zones.len() as f64) as usize % layout.zones.len()];
            let turns = (rng.unit() * 4.0) as u8 % 4;
            let jitter = rng.unit() * 6.0 - 3.0;
            let nudge = (rng.unit() * 6.0 - 3.0, rng.unit() * 6.0 - 3.0);
            let tag = cards::tags::Tag {
                game: layout.game,
                card: format!("P{n:03}"),
                copy: 1,
            };
            let text = tag
                .encode()
                .map_err(|e| VisionError::Encode(e.to_string()))?;
            let card = card_in_zone(zone, &text, plan.tag_mm, turns, jitter, nudge)?;
            let foot = card_footprint(&card, 2.0);
            let mat = Rect {
                x: 0.0,
                y: 0.0,
                w: layout.size_mm.0,
                h: layout.size_mm.1,
            };
            let inside = foot.x >= mat.x
                && foot.y >= mat.y
                && foot.x + foot.w <= mat.w
                && foot.y + foot.h <= mat.h;
            let free = inside
                && !markers.iter().any(|m| m.overlaps(&foot))
                && !scene
                    .cards
                    .iter()
                    .any(|c| card_footprint(c, 2.0).overlaps(&foot));
            if !free {
                // Another zone; after many misses the table counts as full.
                misses += 1;
                if misses >= 50 {
                    misses = 0;
                    scene = bare.clone();
                    push(&mut video, &scene, plan.clear_frames);
                }
                continue;
            }
            misses = 0;
            let frames = place_by_hand(&scene, &card, plan.hand_frames.0, plan.hand_frames.1);
            video.placements.push(Placement {
                payload: text,
                zone: zone.id.clone(),
                quarter_turns: turns,
                turn: false,
                frame: video.scenes.len() + plan.hand_frames.0,
                part,
            });
            for s in &frames {
                push(&mut video, s, 1);
            }
            if let Some(last) = frames.last() {
                scene = last.clone();
            }
            push(&mut video, &scene, plan.still_frames);
            placed += 1;
            n += 1;
            let every = |k: usize| k > 0 && placed % k == 0;
            if every(disturb.shadow_every) {
                let (w, h) = layout.size_mm;
                let y0 = other.unit() * h;
                let y1 = other.unit() * h;
                let depth = 0.35 + other.unit() * 0.25;
                let frames = passing_shadow(
                    &scene,
                    (-150.0, y0),
                    (w + 150.0, y1),
                    (220.0 + other.unit() * 80.0, 140.0 + other.unit() * 60.0),
                    depth,
                    15,
                );
                for s in &frames {
                    push(&mut video, s, 1);
                }
                video.disturbances.shadows += 1;
                push(&mut video, &scene, 3);
            }
            if every(disturb.bump_every) {
                let amplitude = 6.0 + other.unit() * 6.0;
                let settle = (other.unit() * 3.0 - 1.5, other.unit() * 3.0 - 1.5);
                let frames = table_bump(&scene, amplitude, 4, settle, other.next());
                for s in &frames {
                    push(&mut video, s, 1);
                }
                if let Some(last) = frames.last() {
                    scene = last.clone();
                }
                video.disturbances.bumps += 1;
                push(&mut video, &scene, 5);
            }
            if every(disturb.rest_every) && !scene.cards.is_empty() {
                let i = (other.unit() * scene.cards.len() as f64) as usize % scene.cards.len();
                let at = scene.cards[i].center_mm;
                let frames = rest_hand(
                    &scene,
                    at,
                    plan.hand_frames.0,
                    disturb.rest_frames,
                    plan.hand_frames.1,
                );
                for s in &frames {
                    push(&mut video, s, 1);
                }
                video.disturbances.rests += 1;
                video.disturbances.rest_frames += disturb.rest_frames;
                push(&mut video, &scene, 5);
            }
            if every(disturb.remove_every) && !scene.cards.is_empty() {
                let i = (other.unit() * scene.cards.len() as f64) as usize % scene.cards.len();
                let card = scene.cards[i].clone();
                let payload = card.symbol.as_ref().map(|s| s.text.clone());
                if let (Some(payload), Some(frames)) = (
                    payload,
                    remove_by_hand(&scene, i, plan.hand_frames.0, plan.hand_frames.1),
                ) {
                    let start = video.scenes.len();
                    for s in &frames {
                        push(&mut video, s, 1);
                    }
                    // The hand has cleared the place once no hand covers any of the card.
                    let cleared = frames
                        .iter()
                        .rposition(|s| hand_over_card(s, &card))
                        .map_or(start, |k| start + k + 1);
                    video.removals.push(Removal {
                        payload,
                        cleared_frame: cleared,
                        part,
                    });
                    if let Some(last) = frames.last() {
                        scene = last.clone();
                    }
                    push(&mut video, &scene, plan.still_frames.max(12));
                }
            }
            if plan.turn_every > 0 && placed % plan.turn_every == 0 && !scene.cards.is_empty() {
                // Turn a card already down, if its turned outline covers nothing else.
                let i = (rng.unit() * scene.cards.len() as f64) as usize % scene.cards.len();
                let mut turned = scene.cards[i].clone();
                turned.quarter_turns = (turned.quarter_turns + 1) % 4;
                let foot = card_footprint(&turned, 2.0);
                let fits = foot.x >= 0.0
                    && foot.y >= 0.0
                    && foot.x + foot.w <= layout.size_mm.0
                    && foot.y + foot.h <= layout.size_mm.1
                    && !markers.iter().any(|m| m.overlaps(&foot))
                    && !scene
                        .cards
                        .iter()
                        .enumerate()
                        .any(|(j, c)| j != i && card_footprint(c, 2.0).overlaps(&foot));
                let zone = layout.zone_at(turned.center_mm).map(|z| z.id.clone());
                if let (true, Some(zone), Some(symbol)) = (fits, zone, &turned.symbol)
                    && let Some(frames) =
                        turn_by_hand(&scene, i, plan.hand_frames.0, plan.hand_frames.1)
                {
                    video.placements.push(Placement {
                        payload: symbol.text.clone(),
                        zone,
                        quarter_turns: turned.quarter_turns,
                        turn: true,
                        frame: video.scenes.len() + plan.hand_frames.0,
                        part,
                    });
                    for s in &frames {
                        push(&mut video, s, 1);
                    }
                    if let Some(last) = frames.last() {
                        scene = last.clone();
                    }
                    push(&mut video, &scene, plan.still_frames);
                }
            }
        }
        scene = bare.clone();
        push(&mut video, &scene, plan.clear_frames);
    }
    Ok(video)
}
