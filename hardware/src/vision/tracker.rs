//! The sighting tracker: per-frame QR detections in, debounced table events out.
//!
//! Each frame's detections are sorted: the mat's corner markers feed the mat's pose
//! ([`MatWatch`]); a card tag of the layout's game becomes a sighting (card centre in mat mm,
//! zone, rotation in quarter turns relative to the mat); everything else (a URL, another app's
//! code, another game's card, a damaged read) is ignored. A place is reported only once it has
//! been seen still, in the same zone and rotation, for [`TrackerConfig::confirm_frames`] frames
//! and [`TrackerConfig::confirm_s`] seconds; a card counts as gone only after it has not been
//! seen at all for [`TrackerConfig::gone_after_s`] (a hand passing over it hides it for less).
//! One copy seen at two places at once is a [`EventKind::Conflict`], never a guess.
//!
//! ```
//! use cards::core::GameId;
//! use hardware::vision::mat::MatLayout;
//! use hardware::vision::tracker::{Tracker, TrackerConfig};
//! let layout = MatLayout::builtin(GameId::Jaken)?;
//! let mut tracker = Tracker::new(layout, None, TrackerConfig::default());
//! let events = tracker.update(0.0, &[]); // a frame with nothing in it
//! assert!(events.is_empty() && tracker.cards().is_empty());
//! # Ok::<(), hardware::vision::mat::MatError>(())
//! ```

use super::detect::{Detection, Detector, Scanner};
use super::geometry::Point;
use super::mat::{
    MatChange, MatLayout, MatPose, MatWatch, MatWatchConfig, ZoneId, quad_center, quarter_turns,
};
use super::presence::{Look, Presence, TagPrint, card_area, offset_from_print};
use cards::decks::Registry;
use cards::tags::{Scanned, Tag};
use image::GrayImage;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// Settings of the tracker.
#[derive(Clone, Debug, PartialEq)]
pub struct TrackerConfig {
    /// Frames a new place (zone and rotation) must be seen in before it is reported.
    pub confirm_frames: u32,
    /// Seconds a new place must have been seen for before it is reported.
    pub confirm_s: f64,
    /// A card not seen for this long is gone (a hand over it hides it for less) — when
    /// nothing else is known. With the frames at hand ([`Tracker::update_frame`]) a card is
    /// looked for at its place first: one that lies there unread is not gone, one whose place
    /// shows the mat again is gone at once (after [`Self::confirm_frames`] frames and
    /// [`Self::confirm_s`]), one under a hand waits up to [`Self::covered_max_s`]; and the
    /// timeout ends only after a full-frame search has run since the card was last read.
    pub gone_after_s: f64,
    /// A card whose place is covered (a hand resting on it) is kept this long (seconds) before
    /// it counts as gone.
    pub covered_max_s: f64,
    /// A card whose centre moves more than this (mm) while a new place is being confirmed is
    /// still moving: confirming starts again.
    pub still_mm: f64,
    /// Two sightings of one copy further apart than this (mm) are two places: a conflict.
    pub conflict_mm: f64,
    /// A code turned further than this (degrees) from every quarter turn is ambiguous: its
    /// rotation is not reported.
    pub max_skew_deg: f64,
    /// From the tag's centre to the card's centre, in mm towards the tag's bottom edge (a
    /// sticker near the top of the card: about 16 mm for 36 mm tags as `tableside tags` prints
    /// them and the renderer places them); 0 places cards by their tag's centre.
    pub card_offset_mm: f64,
    /// The mat's pose over time.
    pub mat: MatWatchConfig,
}

impl Default for TrackerConfig {
    fn default() -> Self {
        TrackerConfig {
            confirm_frames: 3,
            confirm_s: 0.2,
            gone_after_s: 2.5,
            covered_max_s: 30.0,
            still_mm: 6.0,
            conflict_mm: 30.0,
            max_skew_deg: 25.0,
            card_offset_mm: 0.0,
            mat: MatWatchConfig::default(),
        }
    }
}

/// What happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EventKind {
    /// A card is seen lying in a zone (or on the mat outside every zone) with a rotation.
    Seen,
    /// A card lies in another zone than before (`from` says where it was).
    Moved,
    /// A card lies in the same zone, turned (`from` has the old rotation).
    Rotated,
    /// A card is no longer seen.
    Gone,
    /// One copy seen at two or more places at once (`places`): not guessed, reported.
    Conflict,
    /// The mat's corner markers were not seen for a while (`missing`): nothing is tracked
    /// until they are back.
    MatLost,
    /// The mat is located (again).
    MatFound,
}

/// A zone and rotation (for `from`, and each place of a conflict).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlaceInfo {
    /// The zone's name (`null`: on the mat outside every zone).
    pub zone: Option<String>,
    /// The zone's seat.
    pub seat: Option<usize>,
    /// Quarter turns relative to the mat.
    pub rotation: Option<u8>,
    /// The card's centre in mat mm.
    pub at_mm: Option<[f64; 2]>,
}

/// One event, as a JSON line: `{"time":1.5,"event":"seen","payload":"TS1:J:JD07:2:P",
/// "zone":"battle","seat":0,"rotation":1,"owner":"Aki","at_mm":[350.2,298.0]}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TrackEvent {
    /// Seconds (the frame's time).
    pub time: f64,
    /// What happened.
    pub event: EventKind,
    /// The card's tag text (`null` for mat events).
    pub payload: Option<String>,
    /// The zone's name (`null` outside every zone, for gone, conflict and mat events).
    pub zone: Option<String>,
    /// The zone's seat (`null` for a shared zone).
    pub seat: Option<usize>,
    /// Quarter turns clockwise relative to the mat (0–3).
    pub rotation: Option<u8>,
    /// The copy's owner from the registered decks (`null`: not registered).
    pub owner: Option<String>,
    /// The card's centre in mat mm.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at_mm: Option<[f64; 2]>,
    /// Where the card was before (moved, rotated, gone); boxed to keep events small.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<Box<PlaceInfo>>,
    /// The places of a conflict.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub places: Vec<PlaceInfo>,
    /// The corner markers not seen (mat lost): `TL`, `TR`, `BR`, `BL`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub missing: Vec<String>,
}

impl TrackEvent {
    fn bare(time: f64, event: EventKind) -> TrackEvent {
        TrackEvent {
            time: (time * 1000.0).round() / 1000.0,
            event,
            payload: None,
            zone: None,
            seat: None,
            rotation: None,
            owner: None,
            at_mm: None,
            from: None,
            places: Vec::new(),
            missing: Vec::new(),
        }
    }

    /// The zone as an id (name and seat), when there is one.
    pub fn zone_id(&self) -> Option<ZoneId> {
        self.zone.as_ref().map(|name| ZoneId {
            name: name.clone(),
            seat: self.seat,
        })
    }
}

/// A card as the tracker holds it now (reported and not gone).
#[derive(Clone, Debug, PartialEq)]
pub struct Sighting {
    /// The copy.
    pub tag: Tag,
    /// Its tag text.
    pub payload: String,
    /// Its zone (`None`: on the mat outside every zone).
    pub zone: Option<ZoneId>,
    /// Quarter turns clockwise relative to the mat.
    pub rotation: u8,
    /// Its owner from the registered decks.
    pub owner: Option<String>,
    /// Its centre in mat mm.
    pub at_mm: Point,
    /// When this place was first seen (seconds).
    pub since: f64,
}

#[derive(Clone, Debug, PartialEq)]
struct Place {
    zone: Option<ZoneId>,
    rotation: Option<u8>,
    at: Point,
}

impl Place {
    fn same(&self, o: &Place) -> bool {
        self.zone == o.zone && self.rotation == o.rotation
    }

    fn info(&self) -> PlaceInfo {
        PlaceInfo {
            zone: self.zone.as_ref().map(|z| z.name.clone()),
            seat: self.zone.as_ref().and_then(|z| z.seat),
            rotation: self.rotation,
            at_mm: Some([round1(self.at.0), round1(self.at.1)]),
        }
    }
}

fn round1(v: f64) -> f64 {
    (v * 10.0).round() / 10.0
}

#[derive(Clone, Debug)]
struct Candidate {
    place: Place,
    first: f64,
    frames: u32,
}

#[derive(Clone, Debug)]
struct Track {
    tag: Tag,
    payload: String,
    owner: Option<String>,
    stable: Option<(Place, f64)>,
    candidate: Option<Candidate>,
    last_seen: f64,
    conflict: Option<Candidate>,
    conflict_places: Vec<Place>,
    conflict_reported: bool,
    /// What its tag looked like when last read (with the frames at hand).
    print: Option<TagPrint>,
    /// The pose (its number) the print's mat corners were taken with.
    print_pose: u64,
    /// Since when (and for how many frames) its place has shown what lay under it.
    cleared: Option<(f64, u32)>,
}

/// Why a card not read this frame is not gone yet (for logs and tests).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Hidden {
    /// Its code lies at its place, unread (a shadow, blur); it counts as seen.
    There,
    /// Something is over it (a hand); kept up to [`TrackerConfig::covered_max_s`].
    Covered,
    /// Its place shows what lay under it; gone once that is confirmed.
    Cleared,
    /// Nothing is known; gone after [`TrackerConfig::gone_after_s`].
    Unknown,
}

/// Turns per-frame detections into debounced table events. See the module doc.
#[derive(Clone, Debug)]
pub struct Tracker {
    mat: MatWatch,
    registry: Registry,
    config: TrackerConfig,
    tracks: BTreeMap<String, Track>,
    last_time: Option<f64>,
    presence: Presence,
    /// When the scanner last searched the whole frame.
    last_full_search: Option<f64>,
    /// The cards not read in the last frame, and why they are not gone.
    hidden: BTreeMap<String, Hidden>,
    /// The mat's pose last frame (its marker centres), and a number that changes with it.
    pose_seen: Option<[Point; 4]>,
    pose_number: u64,
}

/// A frame as the tracker sees it when the picture is at hand.
struct View<'a> {
    image: &'a GrayImage,
    detector: &'a Detector,
    full_search: bool,
}

impl Tracker {
    /// A tracker for `layout`'s mat; `registry` names the owners of registered copies.
    pub fn new(layout: MatLayout, registry: Option<Registry>, config: TrackerConfig) -> Tracker {
        Tracker {
            mat: MatWatch::new(layout, config.mat.clone()),
            registry: registry.unwrap_or_default(),
            config,
            tracks: BTreeMap::new(),
            last_time: None,
            presence: Presence::default(),
            last_full_search: None,
            hidden: BTreeMap::new(),
            pose_seen: None,
            pose_number: 0,
        }
    }

    /// The cards reported and not read in the last frame, and why each is not gone yet
    /// (sorted by tag text).
    pub fn hidden(&self) -> Vec<(String, Hidden)> {
        self.hidden.iter().map(|(k, v)| (k.clone(), *v)).collect()
    }

    /// The mat layout.
    pub fn layout(&self) -> &MatLayout {
        self.mat.layout()
    }

    /// The mat's pose and state.
    pub fn mat(&self) -> &MatWatch {
        &self.mat
    }

    /// The settings.
    pub fn config(&self) -> &TrackerConfig {
        &self.config
    }

    /// The cards reported and not gone, sorted by tag text.
    pub fn cards(&self) -> Vec<Sighting> {
        self.tracks
            .values()
            .filter_map(|t| {
                let (place, since) = t.stable.as_ref()?;
                Some(Sighting {
                    tag: t.tag.clone(),
                    payload: t.payload.clone(),
                    zone: place.zone.clone(),
                    rotation: place.rotation.unwrap_or(0),
                    owner: t.owner.clone(),
                    at_mm: place.at,
                    since: *since,
                })
            })
            .collect()
    }

    /// Takes one frame's detections, taken at `time_s` (seconds, increasing); returns the
    /// events it settles, in a stable order (mat events first, then by tag text). Without the
    /// picture, a card not read counts as gone after [`TrackerConfig::gone_after_s`]; prefer
    /// [`Tracker::update_frame`] where the frames are at hand.
    pub fn update(&mut self, time_s: f64, detections: &[Detection]) -> Vec<TrackEvent> {
        self.run(time_s, detections, None)
    }

    /// Scans `image` (the next frame of the stream `scanner` follows, taken at `time_s`) and
    /// takes its detections, looking at the place of every card that was not read before it
    /// may count as gone ([`super::presence`]): a card under a shadow or smeared by a bump is
    /// read again in place or seen lying there, a card under a resting hand is kept, a card
    /// whose place shows the mat again is gone at once.
    pub fn update_frame(
        &mut self,
        time_s: f64,
        image: &GrayImage,
        scanner: &mut Scanner,
    ) -> Vec<TrackEvent> {
        let found = scanner.scan(image);
        let full = scanner.stats().full_search;
        self.update_with_image(time_s, image, &found, scanner.detector(), full)
    }

    /// [`Tracker::update_frame`] with the scanning done by the caller: `detections` are what
    /// `detector`'s scanner read in `image`; `full_search` says whether it searched the whole
    /// frame.
    pub fn update_with_image(
        &mut self,
        time_s: f64,
        image: &GrayImage,
        detections: &[Detection],
        detector: &Detector,
        full_search: bool,
    ) -> Vec<TrackEvent> {
        self.run(
            time_s,
            detections,
            Some(View {
                image,
                detector,
                full_search,
            }),
        )
    }

    fn run(
        &mut self,
        time_s: f64,
        detections: &[Detection],
        view: Option<View>,
    ) -> Vec<TrackEvent> {
        let game = self.mat.layout().game;
        let mut markers = Vec::new();
        let mut cards: BTreeMap<String, (Tag, Vec<Detection>)> = BTreeMap::new();
        for d in detections {
            match cards::tags::scan(&d.text) {
                Ok(Scanned::Corner(c)) => markers.push((c, quad_center(&d.corners))),
                Ok(Scanned::Card(tag)) if tag.game == game => {
                    cards
                        .entry(d.text.clone())
                        .or_insert_with(|| (tag, Vec::new()))
                        .1
                        .push(d.clone());
                }
                // A foreign code, another game's card, a damaged read: not ours.
                _ => {}
            }
        }
        let mut events = Vec::new();
        if let Some(v) = &view {
            // Where cards lie (read now, or tracked) is kept out of the table's background.
            let pose = self.mat.pose();
            let mut areas: Vec<[Point; 4]> = cards
                .values()
                .flat_map(|(_, seen)| seen.iter())
                .map(|d| card_area(&d.corners))
                .collect();
            for t in self.tracks.values() {
                if let (Some(print), Some(pose)) = (&t.print, pose)
                    && let Some(px) = print.corners_px_now(pose)
                {
                    areas.push(card_area(&px));
                }
            }
            self.presence.observe(v.image, time_s, &areas);
            if v.full_search {
                self.last_full_search = Some(time_s);
            }
        }
        let shaken = view.is_some() && self.presence.background().shaken();
        // A frame with fewer than two markers in view (the camera covered or turned away), or
        // one that changed all over at once (the camera shaken), is blind: its time does not
        // count towards any card being gone.
        let dt = time_s - self.last_time.unwrap_or(time_s);
        self.last_time = Some(time_s);
        let blind = markers.len() < 2 || shaken;
        if blind {
            for t in self.tracks.values_mut() {
                t.last_seen += dt;
                if let Some(c) = &mut t.cleared {
                    c.0 += dt;
                }
            }
        }
        match self.mat.update(time_s, &markers) {
            Some(MatChange::Found) => {
                events.push(TrackEvent::bare(time_s, EventKind::MatFound));
                // Nothing was tracked while the mat was lost: no card is gone for that.
                for t in self.tracks.values_mut() {
                    t.last_seen = t.last_seen.max(time_s);
                    t.cleared = None;
                }
            }
            Some(MatChange::Lost(missing)) => {
                let mut e = TrackEvent::bare(time_s, EventKind::MatLost);
                e.missing = missing.iter().map(|c| c.code().to_owned()).collect();
                events.push(e);
            }
            None => {}
        }
        let Some(pose) = self.mat.pose().cloned() else {
            return events;
        };
        if self.pose_seen != Some(pose.markers_px) {
            self.pose_seen = Some(pose.markers_px);
            self.pose_number += 1;
        }
        let pose_number = self.pose_number;
        self.hidden.clear();
        if let Some(v) = &view
            && !blind
        {
            self.look_for_missing(v, &pose, &mut cards);
        }
        let mut seen_now = BTreeSet::new();
        for (payload, (tag, seen)) in cards {
            // Each sighting's place; sightings closer than `conflict_mm` are one place.
            let mut places: Vec<Place> = Vec::new();
            let mut single: Option<&Detection> = None;
            for d in &seen {
                let Some((center, angle)) = pose.place(&d.corners) else {
                    continue;
                };
                let a = angle.to_radians();
                let off = self.config.card_offset_mm;
                let at = (center.0 - off * a.sin(), center.1 + off * a.cos());
                if !self.mat.layout().on_mat(at) {
                    continue;
                }
                if places
                    .iter()
                    .any(|p| dist(p.at, at) <= self.config.conflict_mm)
                {
                    continue;
                }
                places.push(Place {
                    zone: self.mat.layout().zone_at(at).map(|z| z.id.clone()),
                    rotation: quarter_turns(angle, self.config.max_skew_deg),
                    at,
                });
                single = Some(d);
            }
            if places.is_empty() {
                continue;
            }
            let owner = self.registry.owner(&tag).map(|r| r.owner.clone());
            let track = self.tracks.entry(payload.clone()).or_insert_with(|| Track {
                tag,
                payload: payload.clone(),
                owner,
                stable: None,
                candidate: None,
                last_seen: time_s,
                conflict: None,
                conflict_places: Vec::new(),
                conflict_reported: false,
                print: None,
                print_pose: 0,
                cleared: None,
            });
            track.last_seen = time_s;
            track.cleared = None;
            seen_now.insert(payload);
            if let (Some(v), Some(d), 1) = (&view, single, places.len()) {
                refresh_print(track, &self.presence, v.image, (&pose, pose_number), d);
            }
            if let Some(e) = step(track, &self.config, time_s, places) {
                events.push(e);
            }
        }
        // Cards not seen: still there, covered, cleared, or not seen for long enough: gone.
        let full_after =
            |last: f64| view.is_none() || self.last_full_search.is_some_and(|f| f >= last);
        for (payload, t) in &mut self.tracks {
            if seen_now.contains(payload) {
                continue;
            }
            let unseen = time_s - t.last_seen;
            let hidden = self.hidden.get(payload).copied().unwrap_or(Hidden::Unknown);
            let gone = if blind {
                false
            } else {
                match hidden {
                    Hidden::There => {
                        t.last_seen = time_s;
                        t.cleared = None;
                        false
                    }
                    Hidden::Cleared => {
                        let c = t.cleared.get_or_insert((time_s, 0));
                        c.1 += 1;
                        c.1 >= self.config.confirm_frames
                            && time_s - c.0 >= self.config.confirm_s - 1e-9
                    }
                    Hidden::Covered => {
                        t.cleared = None;
                        unseen >= self.config.covered_max_s
                    }
                    Hidden::Unknown => {
                        t.cleared = None;
                        unseen >= self.config.gone_after_s
                            && (full_after(t.last_seen) || unseen >= 2.0 * self.config.gone_after_s)
                    }
                }
            };
            if !gone {
                continue;
            }
            t.candidate = None;
            t.conflict = None;
            t.cleared = None;
            t.print = None;
            let had_conflict = std::mem::take(&mut t.conflict_reported);
            if let Some((place, _)) = t.stable.take() {
                let mut e = TrackEvent::bare(time_s, EventKind::Gone);
                e.payload = Some(t.payload.clone());
                e.owner = t.owner.clone();
                e.from = Some(Box::new(place.info()));
                events.push(e);
            } else if had_conflict {
                let mut e = TrackEvent::bare(time_s, EventKind::Gone);
                e.payload = Some(t.payload.clone());
                e.owner = t.owner.clone();
                events.push(e);
            }
        }
        let cfg = &self.config;
        self.tracks.retain(|p, t| {
            t.stable.is_some()
                || t.conflict_reported
                || seen_now.contains(p)
                || (t.candidate.is_some() && time_s - t.last_seen < cfg.gone_after_s)
        });
        let hidden_now: BTreeSet<&String> = self.tracks.keys().collect();
        self.hidden.retain(|k, _| hidden_now.contains(k));
        events
    }

    /// Looks at the place of every reported card not read in this frame: one read there after
    /// all joins `cards`; the others are noted in `self.hidden`.
    fn look_for_missing(
        &mut self,
        v: &View,
        pose: &MatPose,
        cards: &mut BTreeMap<String, (Tag, Vec<Detection>)>,
    ) {
        // How far the codes read now lie from where their prints put them: the camera moved
        // (a bump) before the pose followed.
        let mut dx = Vec::new();
        let mut dy = Vec::new();
        for (payload, (_, seen)) in cards.iter() {
            if let (Some(t), [d]) = (self.tracks.get(payload), seen.as_slice())
                && let Some(print) = &t.print
                && let Some(o) = offset_from_print(pose, print, d)
            {
                dx.push(o.0);
                dy.push(o.1);
            }
        }
        let median = |v: &mut Vec<f32>| {
            if v.is_empty() {
                return 0.0;
            }
            let mid = v.len() / 2;
            *v.select_nth_unstable_by(mid, f32::total_cmp).1
        };
        let drift = (median(&mut dx), median(&mut dy));
        let game = self.mat.layout().game;
        let read_centres: Vec<(f64, Point)> = cards
            .values()
            .flat_map(|(_, seen)| seen.iter())
            .filter_map(|d| {
                let (c, _) = pose.place(&d.corners)?;
                Some((f64::from(d.side_px()), c))
            })
            .collect();
        for (payload, t) in &self.tracks {
            if t.stable.is_none() || cards.contains_key(payload) {
                continue;
            }
            let Some(print) = &t.print else {
                self.hidden.insert(payload.clone(), Hidden::Unknown);
                continue;
            };
            // Another card read lying over its tag: covered by a card, nothing to look at.
            let here = print.center_mm();
            let side = print.side_mm();
            if read_centres.iter().any(|(_, c)| dist(*c, here) < side) {
                self.hidden.insert(payload.clone(), Hidden::Unknown);
                continue;
            }
            let hidden = match self.presence.look(v.image, pose, print, drift, v.detector) {
                Look::Read(d) => match cards::tags::scan(&d.text) {
                    Ok(Scanned::Card(tag)) if tag.game == game => {
                        let there = d.text == *payload;
                        cards
                            .entry(d.text.clone())
                            .or_insert_with(|| (tag, Vec::new()))
                            .1
                            .push(d);
                        if there {
                            continue;
                        }
                        Hidden::Unknown
                    }
                    _ => Hidden::Unknown,
                },
                Look::There => Hidden::There,
                Look::Cleared => Hidden::Cleared,
                Look::Covered => Hidden::Covered,
                Look::Unknown => Hidden::Unknown,
            };
            self.hidden.insert(payload.clone(), hidden);
        }
    }
}

/// Keeps `track`'s print up to date with its detection `d` of this frame (sampled again only
/// when the code moved in the frame, or the mat's pose changed).
fn refresh_print(
    track: &mut Track,
    presence: &Presence,
    image: &GrayImage,
    (pose, pose_number): (&MatPose, u64),
    d: &Detection,
) {
    let moved = track.print_pose != pose_number
        || track.print.as_ref().is_none_or(|p| {
            p.text != d.text
                || p.corners_px
                    .iter()
                    .zip(&d.corners)
                    .any(|(a, b)| (a.0 - b.0).abs() > 0.7 || (a.1 - b.1).abs() > 0.7)
        });
    if !moved {
        return;
    }
    if let Some(p) = presence.print(image, pose, d, track.print.as_ref()) {
        track.print = Some(p);
        track.print_pose = pose_number;
    }
}

fn dist(a: Point, b: Point) -> f64 {
    ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt()
}

/// One frame's places of one copy: advances its candidate or conflict; the event it settles.
fn step(t: &mut Track, cfg: &TrackerConfig, time: f64, places: Vec<Place>) -> Option<TrackEvent> {
    let confirmed =
        |c: &Candidate| c.frames >= cfg.confirm_frames && time - c.first >= cfg.confirm_s - 1e-9;
    if places.len() > 1 {
        t.candidate = None;
        let c = t.conflict.get_or_insert(Candidate {
            place: places[0].clone(),
            first: time,
            frames: 0,
        });
        c.frames += 1;
        t.conflict_places = places;
        if confirmed(c) && !t.conflict_reported {
            t.conflict_reported = true;
            let mut e = TrackEvent::bare(time, EventKind::Conflict);
            e.payload = Some(t.payload.clone());
            e.owner = t.owner.clone();
            e.places = t.conflict_places.iter().map(Place::info).collect();
            return Some(e);
        }
        return None;
    }
    t.conflict = None;
    let place = places.into_iter().next()?;
    if place.rotation.is_none() {
        // Ambiguous (near 45°): seen, so not gone, but not a place to report.
        t.candidate = None;
        return None;
    }
    if !t.conflict_reported
        && let Some((stable, _)) = &t.stable
        && stable.same(&place)
    {
        t.candidate = None;
        return None;
    }
    match &mut t.candidate {
        Some(c) if c.place.same(&place) && dist(c.place.at, place.at) <= cfg.still_mm => {
            c.frames += 1;
        }
        _ => {
            t.candidate = Some(Candidate {
                place,
                first: time,
                frames: 1,
            });
        }
    }
    let c = t.candidate.as_ref()?;
    if !confirmed(c) {
        return None;
    }
    let new = c.place.clone();
    let since = c.first;
    t.candidate = None;
    let after_conflict = std::mem::take(&mut t.conflict_reported);
    let kind = match &t.stable {
        None => EventKind::Seen,
        Some(_) if after_conflict => EventKind::Seen,
        Some((old, _)) if old.zone != new.zone => EventKind::Moved,
        Some(_) => EventKind::Rotated,
    };
    let mut e = TrackEvent::bare(time, kind);
    e.payload = Some(t.payload.clone());
    e.owner = t.owner.clone();
    let info = new.info();
    e.zone = info.zone;
    e.seat = info.seat;
    e.rotation = info.rotation;
    e.at_mm = info.at_mm;
    if kind != EventKind::Seen {
        e.from = t.stable.as_ref().map(|(p, _)| Box::new(p.info()));
    }
    t.stable = Some((new, since));
    Some(e)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vision::detect::{Ecc, ReadKind};
    use crate::vision::geometry::Homography;
    use cards::core::GameId;
    use cards::tags::Corner;

    /// A camera: 2.6 px a mm, a little rotated, shifted.
    fn cam() -> Homography {
        Homography::similarity(2.6, 0.03, (60.0, 30.0))
    }

    /// A detection of a `size` mm code whose centre lies at `at` (mat mm), turned `deg`.
    fn det(text: &str, at: Point, deg: f64, size: f64) -> Detection {
        let h = size / 2.0;
        let local = [(-h, -h), (h, -h), (h, h), (-h, h)];
        let r = Homography::similarity(1.0, deg.to_radians(), at);
        let corners = local.map(|p| {
            let m = r.map(p).unwrap_or(p);
            let px = cam().map(m).unwrap_or(m);
            (px.0 as f32, px.1 as f32)
        });
        Detection {
            text: text.to_owned(),
            corners,
            version: 2,
            ecc: Ecc::Q,
            read: ReadKind::Searched,
        }
    }

    fn markers(layout: &MatLayout) -> Vec<Detection> {
        Corner::ALL
            .iter()
            .enumerate()
            .map(|(i, c)| det(&c.encode(), layout.markers[i], 0.0, 50.0))
            .collect()
    }

    fn tag(card: &str, copy: u16) -> String {
        Tag {
            game: GameId::Jaken,
            card: card.into(),
            copy,
        }
        .encode()
        .unwrap()
    }

    fn setup() -> (Tracker, Vec<Detection>) {
        let layout = MatLayout::builtin(GameId::Jaken).unwrap();
        let m = markers(&layout);
        (Tracker::new(layout, None, TrackerConfig::default()), m)
    }

    /// Runs frames at 10 per second from `t0`; returns every event.
    fn run(tr: &mut Tracker, t0: f64, frames: usize, what: &[Detection]) -> Vec<TrackEvent> {
        (0..frames)
            .flat_map(|i| tr.update(t0 + i as f64 * 0.1, what))
            .collect()
    }

    fn kinds(ev: &[TrackEvent]) -> Vec<EventKind> {
        ev.iter().map(|e| e.event).collect()
    }

    #[test]
    fn a_card_is_seen_in_its_zone_with_its_rotation_moved_rotated_and_gone() {
        let (mut tr, m) = setup();
        let a = tag("JD07", 2);
        let mut frame = m.clone();
        frame.push(det(&a, (350.0, 300.0), 91.5, 36.0));
        let ev = run(&mut tr, 0.0, 5, &frame);
        assert_eq!(kinds(&ev), [EventKind::MatFound, EventKind::Seen]);
        let seen = &ev[1];
        assert_eq!(seen.payload.as_deref(), Some(a.as_str()));
        assert_eq!(
            (seen.zone.as_deref(), seen.seat, seen.rotation),
            (Some("battle"), Some(0), Some(1))
        );
        assert_eq!(seen.owner, None);
        assert!((seen.time - 0.2).abs() < 1e-9, "{}", seen.time);
        assert_eq!(tr.cards().len(), 1);
        // Turned in place.
        let mut frame = m.clone();
        frame.push(det(&a, (352.0, 300.0), 181.0, 36.0));
        let ev = run(&mut tr, 1.0, 5, &frame);
        assert_eq!(kinds(&ev), [EventKind::Rotated]);
        assert_eq!(ev[0].from.as_ref().and_then(|f| f.rotation), Some(1));
        // Moved to the trash.
        let mut frame = m.clone();
        frame.push(det(&a, (560.0, 300.0), 180.0, 36.0));
        let ev = run(&mut tr, 2.0, 5, &frame);
        assert_eq!(kinds(&ev), [EventKind::Moved]);
        assert_eq!(ev[0].zone.as_deref(), Some("trash"));
        assert_eq!(
            ev[0].from.as_ref().and_then(|f| f.zone.as_deref()),
            Some("battle")
        );
        // Taken away: gone after the timeout.
        let ev = run(&mut tr, 3.0, 30, &m);
        assert_eq!(kinds(&ev), [EventKind::Gone]);
        assert!(tr.cards().is_empty());
        let line = serde_json::to_string(&ev[0]).unwrap();
        assert!(
            line.starts_with("{\"time\":4.9,\"event\":\"gone\",\"payload\":\"TS1:J:JD07:2:P\""),
            "{line}"
        );
    }

    #[test]
    fn a_hand_passing_over_a_card_does_not_make_it_gone() {
        let (mut tr, m) = setup();
        let a = tag("JD01", 1);
        let mut frame = m.clone();
        frame.push(det(&a, (350.0, 300.0), 0.0, 36.0));
        let ev = run(&mut tr, 0.0, 10, &frame);
        assert_eq!(kinds(&ev), [EventKind::MatFound, EventKind::Seen]);
        // A hand covers the card and a marker for 2 s, then leaves.
        let covered: Vec<Detection> = m[1..].to_vec();
        assert!(run(&mut tr, 1.0, 20, &covered).is_empty());
        assert!(run(&mut tr, 3.0, 20, &frame).is_empty());
        assert_eq!(tr.cards().len(), 1);
        // Flicker (seen every other frame) is no event either.
        for i in 0..40 {
            let f = if i % 2 == 0 { &frame } else { &m };
            assert!(tr.update(5.0 + f64::from(i) * 0.1, f).is_empty());
        }
    }

    #[test]
    fn one_copy_in_two_places_is_a_conflict_not_a_guess() {
        let (mut tr, m) = setup();
        let a = tag("JD03", 1);
        let mut frame = m.clone();
        frame.push(det(&a, (350.0, 300.0), 0.0, 36.0));
        frame.push(det(&a, (560.0, 300.0), 0.0, 36.0));
        let ev = run(&mut tr, 0.0, 10, &frame);
        assert_eq!(kinds(&ev), [EventKind::MatFound, EventKind::Conflict]);
        let zones: Vec<_> = ev[1].places.iter().map(|p| p.zone.clone()).collect();
        assert_eq!(zones, [Some("battle".into()), Some("trash".into())]);
        assert!(tr.cards().is_empty());
        // One copy taken away: the other is reported as seen.
        let mut frame = m.clone();
        frame.push(det(&a, (560.0, 300.0), 0.0, 36.0));
        let ev = run(&mut tr, 1.0, 5, &frame);
        assert_eq!(kinds(&ev), [EventKind::Seen]);
        assert_eq!(ev[0].zone.as_deref(), Some("trash"));
    }

    #[test]
    fn foreign_codes_and_other_games_cards_are_ignored() {
        let (mut tr, m) = setup();
        let mut frame = m.clone();
        let yomi = Tag {
            game: GameId::Yomi,
            card: "Y1".into(),
            copy: 1,
        }
        .encode()
        .unwrap();
        for text in [
            "https://example.com/JD07",
            "TS1:J:JD07:2:A",
            "TS2:J:X:1:Q",
            yomi.as_str(),
        ] {
            frame.push(det(text, (350.0, 300.0), 0.0, 36.0));
        }
        let ev = run(&mut tr, 0.0, 30, &frame);
        assert_eq!(kinds(&ev), [EventKind::MatFound]);
        assert!(tr.cards().is_empty());
    }

    #[test]
    fn ambiguous_rotations_and_moving_cards_are_not_reported() {
        let (mut tr, m) = setup();
        let a = tag("JD04", 1);
        let mut frame = m.clone();
        frame.push(det(&a, (350.0, 300.0), 44.0, 36.0));
        assert_eq!(kinds(&run(&mut tr, 0.0, 20, &frame)), [EventKind::MatFound]);
        // Slid along 10 mm a frame: never still, never reported.
        for i in 0..10 {
            let mut frame = m.clone();
            frame.push(det(&a, (300.0 + 10.0 * f64::from(i), 300.0), 0.0, 36.0));
            assert!(tr.update(2.0 + f64::from(i) * 0.1, &frame).is_empty());
        }
    }

    #[test]
    fn owners_come_from_the_registered_decks_and_the_mat_lost_is_reported() {
        let layout = MatLayout::builtin(GameId::Jaken).unwrap();
        let m = markers(&layout);
        let cat = cards::catalogue::Catalogue::jaken_demo().unwrap();
        let list = cat.decks.first().unwrap().id.clone();
        let deck = cards::decks::Deck::from_list(&cat, &list, "Aki").unwrap();
        let mut reg = Registry::default();
        reg.register(&deck).unwrap();
        let t = deck.tags()[0].clone();
        let text = t.encode().unwrap();
        let mut tr = Tracker::new(layout, Some(reg), TrackerConfig::default());
        let mut frame = m.clone();
        frame.push(det(&text, (130.0, 300.0), 0.0, 36.0));
        let ev = run(&mut tr, 0.0, 5, &frame);
        assert_eq!(ev[1].owner.as_deref(), Some("Aki"));
        assert_eq!(tr.cards()[0].owner.as_deref(), Some("Aki"));
        assert_eq!(
            tr.cards()[0].zone.as_ref().map(|z| z.name.as_str()),
            Some("soul")
        );
        // The camera sees nothing for 5 s: mat lost, no card gone; then found again.
        let ev = run(&mut tr, 1.0, 50, &[]);
        assert_eq!(kinds(&ev), [EventKind::MatLost]);
        assert_eq!(ev[0].missing, ["TL", "TR", "BR", "BL"]);
        let ev = run(&mut tr, 6.0, 5, &frame);
        assert_eq!(kinds(&ev), [EventKind::MatFound]);
        assert_eq!(tr.cards().len(), 1);
    }
}
