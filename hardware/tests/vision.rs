#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! The camera side, checked on rendered frames whose truth is known: every tag is read with
//! its text and orientation and nothing else is; a foreign code is reported as what it says;
//! an image that makes `rqrr` panic does not take the detector down; frame sources fail with
//! clear errors.

use cards::tags::{Scanned, TagError, scan};
use hardware::vision::VisionError;
use hardware::vision::detect::{Detection, Detector, ReadKind, Scanner};
use hardware::vision::render::{Camera, Card, Marker, Scene, Symbol, TAG_CODES, Truth, render};
use hardware::vision::source::{CameraSource, DirSource, FrameSource, RenderSource};
use std::collections::BTreeSet;

/// A small table at the recommended scale (about 2.6 px/mm, as 1920 px over 700 mm): a
/// 420 × 220 mm mat, its four corner markers, six cards with 36 mm tags in all four turns,
/// printed as QR version `version` (1: as `tableside tags` prints them now; 2: as every tag was
/// printed before version-1 sheets, and still reads).
fn small_table(version: u8) -> (Scene, Camera) {
    let mut scene = Scene::empty((420.0, 220.0));
    let corners = [(40.0, 40.0), (380.0, 40.0), (380.0, 180.0), (40.0, 180.0)];
    for (corner, at) in cards::tags::Corner::ALL.into_iter().zip(corners) {
        scene.markers.push(Marker {
            symbol: Symbol::marker(&corner.encode()).unwrap(),
            center_mm: at,
            size_mm: 50.0,
            angle_deg: 0.0,
        });
    }
    let places = [
        (120.0, 55.0),
        (210.0, 55.0),
        (300.0, 55.0),
        (120.0, 165.0),
        (210.0, 165.0),
        (300.0, 165.0),
    ];
    for (i, at) in places.into_iter().enumerate() {
        let tag = cards::tags::Tag {
            game: cards::core::GameId::Jaken,
            card: format!("JD{:02}", i + 1),
            copy: 1,
        };
        let turns = (i % 4) as u8;
        let jitter = [2.0, -3.0, 1.0, -1.5, 3.5, 0.0][i];
        let text = tag.encode().unwrap();
        let symbol = if version == 1 {
            Symbol::tag(&text).unwrap()
        } else {
            Symbol::with_code(&text, TAG_CODES[2].0, TAG_CODES[2].1).unwrap()
        };
        scene.cards.push(Card::tagged(symbol, at, turns, jitter));
    }
    let camera = Camera::overhead(1152, 648, scene.mat_mm, 0.02, 0.05, 1.0);
    (scene, camera)
}

fn dist(a: (f32, f32), b: (f32, f32)) -> f32 {
    ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt()
}

/// Every readable truth is found once, at its place and in its orientation, and nothing else.
fn assert_matches_truth(found: &[Detection], truth: &[Truth], what: &str) {
    let expected: BTreeSet<&str> = truth
        .iter()
        .filter(|t| t.readable())
        .map(|t| t.text.as_str())
        .collect();
    let read: Vec<&str> = found.iter().map(|d| d.text.as_str()).collect();
    let read_set: BTreeSet<&str> = read.iter().copied().collect();
    assert_eq!(read_set, expected, "{what}: texts");
    assert_eq!(
        read.len(),
        read_set.len(),
        "{what}: a code read twice: {read:?}"
    );
    for d in found {
        let t = truth.iter().find(|t| t.text == d.text).unwrap();
        for k in 0..4 {
            assert!(
                dist(d.corners[k], t.corners[k]) < 4.0,
                "{what}: {} corner {k} at {:?}, truth {:?}",
                d.text,
                d.corners[k],
                t.corners[k]
            );
        }
    }
}

#[test]
fn every_tag_and_marker_of_a_rendered_table_is_read_with_its_place_and_nothing_else() {
    // Version 1 is what the sheets print (upright ones among them: turn 0 of cards 0 and 4);
    // version 2 is what older sheets printed.
    for version in [1u8, 2] {
        let (scene, camera) = small_table(version);
        let frame = render(&scene, &camera, 0);
        assert_eq!(frame.truth.len(), 10);
        assert!(frame.truth.iter().all(Truth::readable));

        let what = format!("version-{version} tags");
        let mut scanner = Scanner::default();
        let found = scanner.scan(&frame.image);
        assert_matches_truth(&found, &frame.truth, &format!("scanner, {what}"));
        for d in &found {
            assert!(scan(&d.text).is_ok(), "{} is a Tableside code", d.text);
            let want = if d.text.starts_with("TS1:M:") {
                2
            } else {
                version
            };
            assert_eq!(d.version, want, "{what}: {}", d.text);
        }
        let thorough = Detector::default().detect(&frame.image);
        assert_matches_truth(&thorough, &frame.truth, &format!("detect, {what}"));
    }
}

#[test]
fn the_scanner_follows_still_cards_cheaply_and_sees_one_taken_away_and_put_back() {
    for version in [1u8, 2] {
        follows_still_cards(version);
    }
}

fn follows_still_cards(version: u8) {
    let (scene, camera) = small_table(version);
    let mut source = RenderSource::new(
        camera,
        [scene.clone(), scene.clone(), scene.clone(), scene.clone()],
    );
    let mut without = scene.clone();
    let taken = without.cards.remove(4);
    source.push(without.clone());
    source.push(without.clone());
    source.push(without);
    source.push(scene.clone());
    source.push(scene);
    let mut scanner = Scanner::default();
    let mut seen = Vec::new();
    while let Some(frame) = source.next_frame().unwrap() {
        let found = scanner.scan(&frame.image);
        assert_matches_truth(&found, source.truth(), &format!("frame {}", frame.seq));
        seen.push((found, scanner.stats().clone()));
    }
    // Still frames: nothing searched again, every code carried over or re-read.
    let (still, stats) = &seen[2];
    assert!(!stats.full_search);
    assert!(
        still.iter().all(|d| d.read != ReadKind::Searched),
        "{stats:?}"
    );
    // The card taken away is gone at once; put back, it is found again.
    let text = taken.symbol.unwrap().text;
    assert!(seen[4].0.iter().all(|d| d.text != text));
    assert!(
        seen[7]
            .0
            .iter()
            .any(|d| d.text == text && d.read == ReadKind::Searched)
    );
}

#[test]
fn a_foreign_code_is_reported_as_its_text_and_never_taken_for_a_tag() {
    let url = "https://example.com/cards?deck=42";
    let mut scene = Scene::empty((300.0, 170.0));
    scene.markers.push(Marker {
        symbol: Symbol::any(url).unwrap(),
        center_mm: (90.0, 85.0),
        size_mm: 50.0,
        angle_deg: 12.0,
    });
    scene.cards.push(Card::tagged(
        Symbol::tag("TS1:J:JD07:2:P").unwrap(),
        (210.0, 85.0),
        3,
        -2.0,
    ));
    let camera = Camera::overhead(800, 450, scene.mat_mm, 0.02, 0.04, 0.0);
    let frame = render(&scene, &camera, 3);
    let found = Scanner::default().scan(&frame.image);
    let texts: Vec<&str> = found.iter().map(|d| d.text.as_str()).collect();
    assert_eq!(texts, vec!["TS1:J:JD07:2:P", url]);
    assert_eq!(scan(url), Err(TagError::NotATag));
    assert!(matches!(scan(texts[0]), Ok(Scanned::Card(_))));
    assert_matches_truth(&found, &frame.truth, "foreign");
}

/// Four skewed finder-like squares that send `rqrr` 0.11 into its `geometry.rs` assertion
/// (`x <= i32::MAX`) from `detect_grids` (found by a random search over such pictures; the same
/// assertion fires on ZXing's qrcode-6/7.png).
fn rqrr_panic_image() -> image::GrayImage {
    let finders = [
        (
            156.70483214562768,
            43.11656268656348,
            6.07175220283935,
            2.920783811562526,
            -0.10076704085243532,
            0.7675139806543669,
        ),
        (
            88.04471670949688,
            38.26901671572177,
            5.073063409400862,
            2.541932106115247,
            0.22138474012177342,
            1.4450306605793068,
        ),
        (
            124.66371339866456,
            124.6637776203766,
            5.43284019406302,
            1.2095587677912039,
            -0.35775340647188136,
            0.773336814915625,
        ),
        (
            73.46350042688208,
            129.22681713287207,
            3.2836873406689886,
            3.3776617152119988,
            -0.2304979157770644,
            0.5066102298704668,
        ),
    ];
    let mut img = image::GrayImage::from_pixel(160, 160, image::Luma([255]));
    for (cx, cy, s, a, shear, sy) in finders {
        let (ca, sa) = (f64::cos(a), f64::sin(a));
        for py in 0..160u32 {
            for px in 0..160u32 {
                let (dx, dy) = (f64::from(px) + 0.5 - cx, f64::from(py) + 0.5 - cy);
                let v = (-sa * dx + ca * dy) / (s * sy);
                let u = (ca * dx + sa * dy) / s - shear * v;
                let (mu, mv) = (u + 3.5, v + 3.5);
                if (0.0..7.0).contains(&mu) && (0.0..7.0).contains(&mv) {
                    let (x, y) = (mu as u32, mv as u32);
                    let ring = x == 0 || y == 0 || x == 6 || y == 6;
                    let core = (2..=4).contains(&x) && (2..=4).contains(&y);
                    if ring || core {
                        img.put_pixel(px, py, image::Luma([0]));
                    }
                }
            }
        }
    }
    img
}

#[test]
fn an_image_that_makes_rqrr_panic_does_not_take_the_detector_down() {
    let img = rqrr_panic_image();
    // Plain rqrr panics on it.
    let plain = std::panic::catch_unwind(|| {
        let mut prepared = rqrr::PreparedImage::prepare(img.clone());
        prepared.detect_grids().len()
    });
    assert!(
        plain.is_err(),
        "rqrr no longer panics on this image: update the test"
    );

    let detector = Detector::default();
    let found = detector.detect(&img);
    assert!(found.is_empty());
    assert!(detector.panics_contained() >= 1);
    // The detector still works afterwards, on this thread.
    let (scene, camera) = small_table(1);
    let frame = render(&scene, &camera, 1);
    assert_eq!(detector.detect_hinted(&frame.image, &[]).len(), 10);
}

#[test]
fn frame_sources_fail_with_clear_errors() {
    let missing = std::path::Path::new("/nonexistent/tableside-frames");
    let err = DirSource::open(missing).unwrap_err();
    assert!(matches!(err, VisionError::NoDirectory { .. }), "{err:?}");
    assert!(
        err.to_string().contains("/nonexistent/tableside-frames"),
        "{err}"
    );

    let dir = tempfile::tempdir().unwrap();
    assert!(matches!(
        DirSource::open(dir.path()),
        Err(VisionError::NoImages(_))
    ));

    // Images come in name order, as people count, stamped in sequence.
    let (scene, camera) = small_table(1);
    let small = Camera {
        width: 200,
        height: 120,
        ..camera
    };
    for name in ["10.png", "2.png", "1.png"] {
        render(&scene, &small, 0)
            .image
            .save(dir.path().join(name))
            .unwrap();
    }
    std::fs::write(dir.path().join("notes.txt"), "not an image").unwrap();
    let mut source = DirSource::open(dir.path()).unwrap();
    let names: Vec<String> = source
        .remaining()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, vec!["1.png", "2.png", "10.png"]);
    let first = source.next_frame().unwrap().unwrap();
    let second = source.next_frame().unwrap().unwrap();
    assert_eq!((first.seq, second.seq), (0, 1));
    assert!(second.at > first.at);
    assert_eq!(first.image.dimensions(), (200, 120));
    source.next_frame().unwrap().unwrap();
    assert!(source.next_frame().unwrap().is_none());

    std::fs::write(dir.path().join("0.png"), "not a png").unwrap();
    let mut source = DirSource::open(dir.path()).unwrap();
    assert!(matches!(
        source.next_frame(),
        Err(VisionError::BadImage { .. })
    ));

    #[cfg(not(feature = "camera"))]
    {
        let err = CameraSource::open(0).unwrap_err();
        assert!(err.to_string().contains("--features"), "{err}");
    }
    #[cfg(feature = "camera")]
    let _ = CameraSource::open(0);
}

/// A lone code rendered big and clean: `text` at 6 px a module on a light card.
fn lone_code(text: &str) -> image::GrayImage {
    let mut scene = Scene::empty((200.0, 200.0));
    scene.markers.push(Marker {
        symbol: Symbol::any(text).unwrap(),
        center_mm: (100.0, 100.0),
        size_mm: 90.0,
        angle_deg: 8.0,
    });
    let camera = Camera::overhead(420, 420, scene.mat_mm, 0.02, 0.04, 0.0);
    render(&scene, &camera, 5).image
}

#[test]
fn inverted_and_mirrored_codes_are_read() {
    let text = "https://example.com/light-on-dark";
    let plain = lone_code(text);
    let mut inverted = plain.clone();
    image::imageops::invert(&mut inverted);
    let mirrored = image::imageops::flip_horizontal(&plain);
    let detector = Detector::default();
    for (what, img) in [
        ("plain", &plain),
        ("inverted", &inverted),
        ("mirrored", &mirrored),
    ] {
        let found: Vec<String> = detector.detect(img).into_iter().map(|d| d.text).collect();
        assert_eq!(found, vec![text.to_owned()], "{what}");
        let mut scanner = Scanner::default();
        let scanned: Vec<String> = scanner.scan(img).into_iter().map(|d| d.text).collect();
        assert_eq!(scanned, vec![text.to_owned()], "{what}, scanner");
    }
}

#[test]
fn reading_does_not_depend_on_the_frame_s_orientation() {
    let (scene, camera) = small_table(1);
    let frame = render(&scene, &camera, 2);
    let detector = Detector::default();
    let want: BTreeSet<String> = frame.truth.iter().map(|t| t.text.clone()).collect();
    let turns = [
        frame.image.clone(),
        image::imageops::rotate90(&frame.image),
        image::imageops::rotate180(&frame.image),
        image::imageops::rotate270(&frame.image),
        image::imageops::flip_vertical(&frame.image),
    ];
    for (k, img) in turns.iter().enumerate() {
        let read: BTreeSet<String> = detector.detect(img).into_iter().map(|d| d.text).collect();
        assert_eq!(read, want, "turn {k}");
    }
}

/// A frame tiled with finder look-alikes on a regular grid: every finder has partners at
/// right angles with equal legs.
fn finder_wall(w: u32, h: u32, unit: u32) -> image::GrayImage {
    let cell = unit * 10;
    image::GrayImage::from_fn(w, h, |x, y| {
        let (mx, my) = ((x % cell) / unit, (y % cell) / unit);
        let ring = mx == 0 || my == 0 || mx == 6 || my == 6;
        let core = (2..=4).contains(&mx) && (2..=4).contains(&my);
        image::Luma([if mx < 7 && my < 7 && (ring || core) {
            20
        } else {
            235
        }])
    })
}

#[test]
fn hostile_frames_end_with_nothing_read_and_the_detector_still_works() {
    let mut s = 0x5EEDu64;
    let noise = image::GrayImage::from_fn(512, 512, |_, _| {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        image::Luma([(s >> 56) as u8])
    });
    let wall = finder_wall(960, 540, 3);
    let detector = Detector::default();
    for (what, img) in [("noise", &noise), ("finder wall", &wall)] {
        assert!(detector.detect(img).is_empty(), "{what}");
        let mut scanner = Scanner::default();
        assert!(scanner.scan(img).is_empty(), "{what}, scanner");
        assert!(scanner.scan(img).is_empty(), "{what}, scanner again");
    }
    // Nothing was left broken: a real table still reads whole.
    let (scene, camera) = small_table(1);
    let frame = render(&scene, &camera, 4);
    assert_eq!(detector.detect(&frame.image).len(), 10);
}
