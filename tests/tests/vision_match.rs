//! The whole path, rendered frames → scanner → tracker → sightings → match: the demo Jaken
//! match, where every monster turned over and every BG card declared is put down on the mat by
//! a hand in front of the camera instead of being tapped, ends in the same state as the same
//! match entered by hand.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use cards::catalogue::Catalogue;
use cards::core::GameId;
use cards::matches::{AnyMatch, new_match};
use cards::script::{Script, Step, run_step};
use cards::sightings::{Proposal, Sighting, propose};
use cards::tags::{Scanned, Tag, scan};
use hardware::vision::detect::{Detector, DetectorConfig, ScanConfig, Scanner};
use hardware::vision::mat::MatLayout;
use hardware::vision::render::{Camera, Scene, card_in_zone, mat_scene, place_by_hand, render};
use hardware::vision::tracker::{EventKind, TrackEvent, Tracker, TrackerConfig};
use serde_json::Value;

const FPS: f64 = 10.0;
/// 1280 × 720 over the 700 mm mat with 60 mm tags (docs/vision.md: the tag size for 1280 px).
const SIZE: (u32, u32) = (1280, 720);
const TAG_MM: f64 = 60.0;

/// The camera, the table and the tracker, frame by frame.
struct Table {
    layout: MatLayout,
    camera: Camera,
    scene: Scene,
    scanner: Scanner,
    tracker: Tracker,
    time: f64,
    frame: u64,
}

impl Table {
    fn new() -> Table {
        let layout = MatLayout::builtin(GameId::Jaken).unwrap();
        let scene = mat_scene(&layout).unwrap();
        let camera = Camera::overhead(SIZE.0, SIZE.1, layout.size_mm, 0.03, 0.03, 0.8);
        let tracker = Tracker::new(layout.clone(), None, TrackerConfig::default());
        Table {
            layout,
            camera,
            scene,
            scanner: Scanner::new(
                Detector::new(DetectorConfig::default()),
                ScanConfig::default(),
            ),
            tracker,
            time: 0.0,
            frame: 0,
        }
    }

    /// One camera frame of `scene`: its events.
    fn shoot(&mut self, scene: &Scene) -> Vec<TrackEvent> {
        let image = render(scene, &self.camera, self.frame).image;
        let detections = self.scanner.scan(&image);
        let events = self.tracker.update(self.time, &detections);
        self.time += 1.0 / FPS;
        self.frame += 1;
        events
    }
}

/// A monster or BG card of the script, and the zone it goes to.
fn placed(step: &Step) -> Option<(&'static str, String, usize)> {
    let Step::Input(v) = step else { return None };
    if v.get("override_reason").is_some() {
        return None;
    }
    let mv = v.get("move")?;
    let zone = match mv.get("type")?.as_str()? {
        "reveal" => "battle",
        "declare-bg" => "bg",
        _ => return None,
    };
    let card = mv.get("card")?.as_str()?.to_owned();
    let seat = usize::try_from(mv.get("player")?.as_u64()?).ok()?;
    Some((zone, card, seat))
}

fn sighting_of(e: &TrackEvent) -> Option<Sighting> {
    if !matches!(e.event, EventKind::Seen | EventKind::Moved) {
        return None;
    }
    let Ok(Scanned::Card(tag)) = scan(e.payload.as_deref()?) else {
        return None;
    };
    Some(Sighting {
        card: tag.card,
        seat: e.seat,
        zone: e.zone.clone()?,
        owner: e.owner.clone(),
    })
}

#[test]
fn the_demo_jaken_match_with_its_cards_read_by_the_camera_ends_as_entered_by_hand() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../docs/examples/jaken-demo.script"
    ))
    .unwrap();
    let script = Script::parse(&text).unwrap();
    let catalogue = Catalogue::builtin(GameId::Jaken).unwrap();
    let header = script.header(&catalogue).unwrap();

    // By hand.
    let mut by_hand = new_match(header.clone(), &catalogue).unwrap();
    for (line, step) in &script.steps {
        run_step(by_hand.as_mut(), *line, step, &mut |_| Ok(())).unwrap();
    }

    // Through the camera.
    let mut m: Box<dyn AnyMatch> = new_match(header, &catalogue).unwrap();
    let mut table = Table::new();
    let still = table.scene.clone();
    for _ in 0..5 {
        table.shoot(&still);
    }
    let mut from_camera = 0;
    let mut latencies = Vec::new();
    for (line, step) in &script.steps {
        // Between battles the players clear their battle and BG zones.
        if let Step::Input(v) = step
            && v.pointer("/move/type").and_then(Value::as_str) == Some("end-battle")
        {
            run_step(m.as_mut(), *line, step, &mut |_| Ok(())).unwrap();
            table.scene.cards.clear();
            // The camera sees the cleared mat for a moment, then again after a pause long
            // enough for the cleared cards to be reported gone (the tracker counts seconds).
            let cleared = table.scene.clone();
            for _ in 0..2 {
                table.shoot(&cleared);
            }
            table.time += 3.0;
            for _ in 0..3 {
                table.shoot(&cleared);
            }
            continue;
        }
        let Some((zone, card, seat)) = placed(step) else {
            run_step(m.as_mut(), *line, step, &mut |_| Ok(())).unwrap();
            continue;
        };
        // A hand puts the card down in its zone and leaves.
        let zone_rect = table.layout.zone(zone, Some(seat)).unwrap();
        let copy = Tag {
            game: GameId::Jaken,
            card: card.clone(),
            copy: 1,
        };
        let jitter = f64::from(u8::try_from(*line % 7).unwrap()) - 3.0;
        let quarter = if seat == 1 { 2 } else { 0 };
        let c = card_in_zone(
            zone_rect,
            &copy.encode().unwrap(),
            TAG_MM,
            quarter,
            jitter,
            (0.0, 0.0),
        )
        .unwrap();
        let frames = place_by_hand(&table.scene, &c, 3, 3);
        let left_at = table.time + (frames.len() as f64) / FPS;
        let mut applied = None;
        let mut shots = frames.clone();
        // After the hand is gone, the still table for up to a second.
        let last = frames.last().unwrap().clone();
        shots.extend(std::iter::repeat_n(last.clone(), 10));
        for scene in &shots {
            for event in table.shoot(scene) {
                let Some(s) = sighting_of(&event) else {
                    continue;
                };
                match propose(m.as_ref(), &s) {
                    Proposal::Apply(action) => {
                        assert!(
                            applied.is_none(),
                            "line {line}: a second move from one card"
                        );
                        let p = m.prepare_json(&action.input).unwrap();
                        m.commit_json(&p.json).unwrap();
                        applied = Some((action.input, event.time));
                    }
                    Proposal::Confirm(actions) => {
                        panic!("line {line}: {s:?} asked to choose among {actions:?}")
                    }
                    // An older card seen again (it was covered by the hand): not a move.
                    Proposal::NoMove(_) => {}
                }
            }
            if applied.is_some() {
                break;
            }
        }
        table.scene = last;
        let (input, at) = applied.unwrap_or_else(|| {
            panic!("line {line}: {card} in {zone} of seat {seat} was not seen within 1 s")
        });
        let Step::Input(expected) = step else {
            unreachable!()
        };
        assert_eq!(&input, expected, "line {line}");
        latencies.push(at - left_at);
        from_camera += 1;
    }
    assert!(
        from_camera >= 20,
        "only {from_camera} moves came from the camera"
    );
    assert!(
        latencies.iter().all(|l| *l <= 1.0),
        "every card within 1 s of the hand leaving: {latencies:?}"
    );
    assert_eq!(m.state_json(), by_hand.state_json());
    assert_eq!(m.outcome(), by_hand.outcome());
    assert!(m.outcome().is_some(), "the demo match has a winner");
}
