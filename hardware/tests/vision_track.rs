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
        let events = tracker.update_frame(t, &frame.image, &mut scanner);
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

/// Cards lying still under shadows, bumps of the table and a hand resting on one are never
/// reported gone (nor seen again); a card a hand takes away is gone within 1 s of the hand
/// clearing its place.
#[test]
fn still_cards_survive_shadows_bumps_and_a_resting_hand_and_a_card_taken_away_is_gone_at_once() {
    use hardware::vision::render::{
        card_in_zone, hand_over_card, mat_scene, passing_shadow, place_by_hand, remove_by_hand,
        rest_hand, table_bump,
    };
    let (w, h, tag_mm) = (960, 540, 48.0);
    let layout = MatLayout::builtin(GameId::Jaken).unwrap();
    let mut scene = mat_scene(&layout).unwrap();
    let mut scenes = vec![scene.clone(); 25];
    let zones = [
        ("soul", 0),
        ("battle", 0),
        ("trash", 0),
        ("deck", 1),
        ("bg", 1),
        ("soul", 1),
    ];
    let mut texts = Vec::new();
    for (i, (zone, seat)) in zones.iter().enumerate() {
        let z = layout.zone(zone, Some(*seat)).unwrap();
        let text = cards::tags::Tag {
            game: GameId::Jaken,
            card: format!("S{i:02}"),
            copy: 1,
        }
        .encode()
        .unwrap();
        let card = card_in_zone(z, &text, tag_mm, (i % 4) as u8, 1.5, (1.0, -2.0)).unwrap();
        scenes.extend(place_by_hand(&scene, &card, 2, 2));
        scene = scenes.last().unwrap().clone();
        scenes.extend(vec![scene.clone(); 8]);
        texts.push(text);
    }
    let settled = scenes.len();
    // Three players lean over the table one after another; a deep shadow last.
    for (k, depth) in [0.35, 0.5, 0.6].into_iter().enumerate() {
        let y = 120.0 + 90.0 * k as f64;
        scenes.extend(passing_shadow(
            &scene,
            (-150.0, y),
            (850.0, 400.0 - y),
            (240.0, 160.0),
            depth,
            15,
        ));
        scenes.extend(vec![scene.clone(); 3]);
    }
    // The table is bumped twice; the second time the camera comes to rest 1.5 px away.
    scenes.extend(table_bump(&scene, 10.0, 4, (0.0, 0.0), 1));
    scenes.extend(vec![scene.clone(); 5]);
    let bumped = table_bump(&scene, 8.0, 4, (1.5, -1.0), 2);
    scene = bumped.last().unwrap().clone();
    scenes.extend(bumped);
    scenes.extend(vec![scene.clone(); 5]);
    // A hand rests 4 s on the battle card (longer than the 2.5 s timeout), then leaves.
    let battle = scene.cards[1].center_mm;
    scenes.extend(rest_hand(&scene, battle, 2, 40, 2));
    scenes.extend(vec![scene.clone(); 5]);
    // A hand takes the trash card away; its place is clear from the first frame no hand
    // covers any of it.
    let taken = texts[2].clone();
    let card = scene.cards[2].clone();
    let removal = remove_by_hand(&scene, 2, 2, 3).unwrap();
    let hand_left = scenes.len()
        + removal
            .iter()
            .rposition(|s| hand_over_card(s, &card))
            .unwrap()
        + 1;
    scene = removal.last().unwrap().clone();
    scenes.extend(removal);
    scenes.extend(vec![scene.clone(); 20]);

    let camera = Camera::overhead(w, h, layout.size_mm, 0.02, 0.05, 1.0);
    let mut source = RenderSource::new(camera, scenes);
    let config = TrackerConfig {
        card_offset_mm: tag_to_card_mm(tag_mm),
        ..TrackerConfig::default()
    };
    let mut scanner = Scanner::default();
    let mut tracker = Tracker::new(layout, None, config);
    let mut events = Vec::new();
    let mut covered_seen = false;
    while let Some(frame) = source.next_frame().unwrap() {
        let f = frame.seq as usize;
        for e in tracker.update_frame(f as f64 / 10.0, &frame.image, &mut scanner) {
            events.push((f, e));
        }
        covered_seen |= tracker
            .hidden()
            .iter()
            .any(|(_, why)| *why == hardware::vision::tracker::Hidden::Covered);
    }
    let said: Vec<String> = events
        .iter()
        .map(|(f, e)| format!("{f}: {}", serde_json::to_string(e).unwrap()))
        .collect();
    let seen: Vec<&str> = events
        .iter()
        .filter(|(_, e)| e.event == EventKind::Seen)
        .filter_map(|(_, e)| e.payload.as_deref())
        .collect();
    assert_eq!(seen.len(), 6, "each card seen once: {said:#?}");
    assert!(
        events
            .iter()
            .all(|(f, e)| *f < settled || e.event != EventKind::Seen),
        "{said:#?}"
    );
    let gone: Vec<&(usize, hardware::vision::tracker::TrackEvent)> = events
        .iter()
        .filter(|(_, e)| e.event == EventKind::Gone)
        .collect();
    assert_eq!(gone.len(), 1, "only the card taken away is gone: {said:#?}");
    assert_eq!(gone[0].1.payload.as_deref(), Some(taken.as_str()));
    let late = (gone[0].0 as f64 - hand_left as f64) / 10.0;
    assert!(
        late <= 1.0,
        "gone {late:.1} s after the hand left: {said:#?}"
    );
    assert!(covered_seen, "the resting hand was never taken for a cover");
    assert!(
        events
            .iter()
            .all(|(_, e)| !matches!(e.event, EventKind::Conflict | EventKind::MatLost)),
        "{said:#?}"
    );
    assert_eq!(tracker.cards().len(), 5);
}
