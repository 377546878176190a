//! The vision path end to end on a short rendered video: cards put down by hand into zones of
//! two games' mats (and now and then one turned a quarter in place), read by `Scanner`, tracked
//! by `Tracker`: every card is reported in its zone with its rotation within 1 s of the hand
//! leaving it, and nothing wrong is reported.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use cards::core::GameId;
use hardware::vision::detect::Scanner;
use hardware::vision::mat::MatLayout;
use hardware::vision::render::{Camera, VideoPlan, table_video, tag_to_card_mm};
use hardware::vision::source::{FrameSource, RenderSource};
use hardware::vision::tracker::{EventKind, Tracker, TrackerConfig};
use std::collections::BTreeSet;

#[test]
fn cards_put_down_by_hand_are_reported_in_their_zone_and_rotation_and_nothing_wrong_is() {
    // Small frames keep the debug build fast: 960 × 540 over the 700 mm mat is 1.3 px/mm, so
    // the tags are 48 mm (2.5 px a module, as 36 mm tags at 1280 × 720).
    let (w, h, tag_mm) = (960, 540, 48.0);
    let layouts = [GameId::Jaken, GameId::RockmanExe].map(|g| MatLayout::builtin(g).unwrap());
    let plan = VideoPlan {
        placements_per_mat: 10,
        max_on_mat: 10,
        tag_mm,
        hand_frames: (2, 2),
        still_frames: 8,
        clear_frames: 27,
        turn_every: 4,
        seed: 5,
    };
    let video = table_video(&layouts, &plan).unwrap();
    assert_eq!(video.placements.iter().filter(|p| !p.turn).count(), 20);
    assert!(video.placements.iter().filter(|p| p.turn).count() >= 2);
    // The action in effect for a card at frame `f` (put down, or turned later).
    let current = |payload: &str, f: usize| {
        (0..video.placements.len())
            .rev()
            .find(|&i| video.placements[i].payload == payload && video.placements[i].frame <= f)
    };
    let camera = Camera::overhead(w, h, layouts[0].size_mm, 0.02, 0.05, 1.0);
    let mut source = RenderSource::new(camera, video.scenes.clone());
    let config = TrackerConfig {
        card_offset_mm: tag_to_card_mm(tag_mm),
        ..TrackerConfig::default()
    };
    let mut scanner = Scanner::default();
    let mut part = usize::MAX;
    let mut tracker = Tracker::new(layouts[0].clone(), None, config.clone());
    let mut reported = vec![None; video.placements.len()];
    let mut uncovered = vec![None; video.placements.len()];
    let mut wrong = Vec::new();
    while let Some(frame) = source.next_frame().unwrap() {
        let f = frame.seq as usize;
        let t = f as f64 / 10.0;
        if video.part_of_frame[f] != part {
            part = video.part_of_frame[f];
            tracker = Tracker::new(layouts[part].clone(), None, config.clone());
        }
        let events = tracker.update(t, &scanner.scan(&frame.image));
        let on_table: BTreeSet<&str> = video.scenes[f]
            .cards
            .iter()
            .filter_map(|c| c.symbol.as_ref().map(|s| s.text.as_str()))
            .collect();
        for tr in source.truth().iter().filter(|tr| tr.readable()) {
            if let Some(i) = current(&tr.text, f)
                && uncovered[i].is_none()
            {
                uncovered[i] = Some(t);
            }
        }
        for e in events {
            let payload = e.payload.clone().unwrap_or_default();
            let ok = match e.event {
                EventKind::Seen | EventKind::Moved | EventKind::Rotated => current(&payload, f)
                    .is_some_and(|i| {
                        let p = &video.placements[i];
                        let kind = if p.turn {
                            EventKind::Rotated
                        } else {
                            EventKind::Seen
                        };
                        let right = on_table.contains(payload.as_str())
                            && e.event == kind
                            && e.zone_id() == Some(p.zone.clone())
                            && e.rotation == Some(p.quarter_turns);
                        if right && reported[i].is_none() {
                            reported[i] = Some(t);
                        }
                        right
                    }),
                EventKind::Gone => !on_table.contains(payload.as_str()),
                EventKind::MatFound => true,
                EventKind::Conflict | EventKind::MatLost => false,
            };
            if !ok {
                wrong.push((f, e));
            }
        }
    }
    assert!(wrong.is_empty(), "wrong reports: {wrong:#?}");
    for (i, p) in video.placements.iter().enumerate() {
        let (Some(r), Some(u)) = (reported[i], uncovered[i]) else {
            panic!("{p:?} was not reported (uncovered at {:?})", uncovered[i]);
        };
        assert!(
            r - u <= 1.0,
            "{p:?} reported {:.1} s after the hand left",
            r - u
        );
    }
    // The tracker's view at the end: the table was cleared.
    assert!(tracker.cards().is_empty());
}
