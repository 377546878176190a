//! What the table-video benchmarks share: one core's CPU time, percentiles, arguments, and the
//! judge that scores a tracker's events against a rendered video's truth.

#![allow(dead_code)]

use hardware::vision::mat::ZoneId;
use hardware::vision::render::{Placement, TableVideo, Truth};
use hardware::vision::tracker::{EventKind, TrackEvent};
use std::collections::{BTreeMap, BTreeSet};

/// This thread's CPU time (one core's), the detector's own clock.
pub use hardware::vision::detect::thread_cpu;

/// The `p`-quantile (0–1) of sorted values (nearest rank); NaN for none.
pub fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

/// `median / p95 / max` of `values` (sorted here), with `unit`.
pub fn spread(values: &mut [f64], digits: usize, unit: &str) -> String {
    values.sort_by(f64::total_cmp);
    format!(
        "{:.d$} / {:.d$} / {:.d$} {unit}",
        percentile(values, 0.5),
        percentile(values, 0.95),
        values.last().copied().unwrap_or(f64::NAN),
        d = digits
    )
}

/// The value after `name` on the command line, parsed.
pub fn arg<T: std::str::FromStr>(args: &[String], name: &str) -> Option<T> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
}

/// Scores a tracker's events against what a [`TableVideo`] put where.
pub struct Judge<'a> {
    video: &'a TableVideo,
    by_payload: BTreeMap<&'a str, Vec<usize>>,
    /// When each placement was reported right.
    reported: Vec<Option<f64>>,
    /// When each placement's tag was first wholly uncovered.
    uncovered: Vec<Option<f64>>,
    /// When each removal was reported gone.
    removed: Vec<Option<f64>>,
    /// Every wrong event, with its frame.
    pub wrong: Vec<(usize, TrackEvent)>,
    /// Of those, cards reported gone while they lay on the table.
    pub false_gone: usize,
    /// `mat-lost` events.
    pub mat_lost: usize,
    fps: f64,
}

impl<'a> Judge<'a> {
    /// A judge for `video` played at `fps`.
    pub fn new(video: &'a TableVideo, fps: f64) -> Judge<'a> {
        let mut by_payload: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
        for (i, p) in video.placements.iter().enumerate() {
            by_payload.entry(p.payload.as_str()).or_default().push(i);
        }
        Judge {
            video,
            by_payload,
            reported: vec![None; video.placements.len()],
            uncovered: vec![None; video.placements.len()],
            removed: vec![None; video.removals.len()],
            wrong: Vec::new(),
            false_gone: 0,
            mat_lost: 0,
            fps,
        }
    }

    /// The action in effect for a card at frame `f` (put down, or turned later).
    fn current(&self, payload: &str, f: usize) -> Option<usize> {
        self.by_payload
            .get(payload)?
            .iter()
            .copied()
            .rev()
            .find(|&i| self.video.placements[i].frame <= f)
    }

    /// Takes frame `f`'s truth (what the camera could see) and the events the tracker gave.
    pub fn frame(&mut self, f: usize, truth: &[Truth], events: &[TrackEvent]) {
        let t = f as f64 / self.fps;
        let on_table: BTreeSet<&str> = self.video.scenes[f]
            .cards
            .iter()
            .filter_map(|c| c.symbol.as_ref().map(|s| s.text.as_str()))
            .collect();
        for tr in truth.iter().filter(|t| t.readable()) {
            if let Some(i) = self.current(tr.text.as_str(), f)
                && self.uncovered[i].is_none()
            {
                self.uncovered[i] = Some(t);
            }
        }
        for e in events {
            let payload = e.payload.as_deref().unwrap_or("");
            let ok = match e.event {
                EventKind::Seen | EventKind::Moved | EventKind::Rotated => {
                    match self.current(payload, f) {
                        Some(i) => {
                            let p = &self.video.placements[i];
                            let right = on_table.contains(payload)
                                && e.event == expected_kind(p)
                                && e.zone_id() == Some(p.zone.clone())
                                && e.rotation == Some(p.quarter_turns);
                            if right && self.reported[i].is_none() {
                                self.reported[i] = Some(t);
                            }
                            right
                        }
                        None => false,
                    }
                }
                EventKind::Gone => {
                    if on_table.contains(payload) {
                        self.false_gone += 1;
                        false
                    } else {
                        if let Some(k) = self
                            .video
                            .removals
                            .iter()
                            .position(|r| r.payload == payload)
                            && self.removed[k].is_none()
                        {
                            self.removed[k] = Some(t);
                        }
                        true
                    }
                }
                EventKind::Conflict => false,
                EventKind::MatLost => {
                    self.mat_lost += 1;
                    true
                }
                EventKind::MatFound => true,
            };
            if !ok {
                self.wrong.push((f, e.clone()));
            }
        }
    }

    /// The summary: counts, latencies and what went wrong.
    pub fn summary(&self) -> Summary {
        let mut s = Summary::default();
        for (i, p) in self.video.placements.iter().enumerate() {
            if p.turn {
                s.turned += 1;
            } else {
                s.placed += 1;
            }
            match (self.reported[i], self.uncovered[i]) {
                (Some(r), Some(u)) => {
                    s.latency.push(r - u);
                    if r - u <= 1.0 + 1e-9 {
                        if p.turn {
                            s.turned_in_time += 1;
                        } else {
                            s.placed_in_time += 1;
                        }
                    } else {
                        s.late.push(format!(
                            "{} in {} late by {:.1} s",
                            p.payload,
                            zone_name(&p.zone),
                            r - u
                        ));
                    }
                }
                (None, _) => s.late.push(format!(
                    "{} ({}, {} turns, frame {}) never reported",
                    p.payload,
                    zone_name(&p.zone),
                    p.quarter_turns,
                    p.frame
                )),
                (Some(_), None) => s
                    .late
                    .push(format!("{}: its tag was never uncovered", p.payload)),
            }
        }
        for (k, r) in self.video.removals.iter().enumerate() {
            s.removals += 1;
            let cleared = r.cleared_frame as f64 / self.fps;
            match self.removed[k] {
                Some(t) => {
                    s.removal_latency.push(t - cleared);
                    if t - cleared <= 1.0 + 1e-9 {
                        s.removals_in_time += 1;
                    } else {
                        s.late.push(format!(
                            "{} taken away: gone {:.1} s after the hand cleared",
                            r.payload,
                            t - cleared
                        ));
                    }
                }
                None => s
                    .late
                    .push(format!("{} taken away: never reported gone", r.payload)),
            }
        }
        s.wrong = self.wrong.len();
        s.false_gone = self.false_gone;
        s.mat_lost = self.mat_lost;
        s
    }
}

/// What a run scored.
#[derive(Debug, Default)]
pub struct Summary {
    /// New cards put down.
    pub placed: usize,
    /// Of those, reported right within 1 s of the hand leaving.
    pub placed_in_time: usize,
    /// Cards turned in place.
    pub turned: usize,
    /// Of those, reported right within 1 s.
    pub turned_in_time: usize,
    /// Cards taken away by hand.
    pub removals: usize,
    /// Of those, reported gone within 1 s of the hand clearing.
    pub removals_in_time: usize,
    /// Wrong events.
    pub wrong: usize,
    /// Cards reported gone while on the table.
    pub false_gone: usize,
    /// `mat-lost` events.
    pub mat_lost: usize,
    /// Seconds from the hand leaving to the report.
    pub latency: Vec<f64>,
    /// Seconds from the hand clearing to `gone`.
    pub removal_latency: Vec<f64>,
    /// What was late or missing.
    pub late: Vec<String>,
}

/// What a new card is reported as, and a card turned in place.
pub fn expected_kind(p: &Placement) -> EventKind {
    if p.turn {
        EventKind::Rotated
    } else {
        EventKind::Seen
    }
}

fn zone_name(z: &ZoneId) -> String {
    z.to_string()
}

/// An event as its JSON line.
pub fn json_line(e: &TrackEvent) -> String {
    serde_json::to_string(e).unwrap_or_default()
}
