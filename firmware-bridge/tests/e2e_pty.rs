//! End to end over real pseudo-terminals: the simulated tower (`sim`) on one side, the host
//! link (tokio + serialport) on the other, with faults injected on the way.

// Test helpers outside #[test] functions may fail loudly: a failure is the test's answer.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use firmware_bridge::link::{
    Discovery, Link, LinkConfig, LinkState, PortChoice, Roll, TowerRef, WireMode,
};
use firmware_bridge::message::BootId;
use firmware_bridge::sim::{Command, FaultPlan, Injection, Sim, SimConfig, SimEvent};
mod common;
use common::{link_config, wait_connected};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use serialport::SerialPort;

fn sim_config(seed: u64) -> SimConfig {
    SimConfig {
        heartbeat: Some(Duration::from_millis(50)),
        seed: Some(seed),
        dice: vec![6, 6, 20],
        ..SimConfig::default()
    }
}

async fn next_roll(link: &mut Link, within: Duration) -> Option<Roll> {
    tokio::time::timeout(within, link.recv())
        .await
        .ok()
        .flatten()
}

/// Polls the simulator (its status sits behind a std mutex) without blocking the runtime.
async fn sim_wait(
    sim: &Sim,
    within: Duration,
    done: impl Fn(&firmware_bridge::sim::SimStatus) -> bool,
) -> bool {
    let end = Instant::now() + within;
    while Instant::now() < end {
        if done(&sim.status()) {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    false
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rolls_with_the_towers_own_faults_arrive_exactly_once_in_order() {
    // The simulator's own injections (noise, flips, truncation, repeats, ignored host
    // frames) and its own unplugs; `faults_pty.rs` runs the proxy's, with resets.
    const ROLLS: usize = 2_000;
    const WINDOW: usize = 16;
    const DROPS_AT: [usize; 3] = [400, 900, 1_600];
    const RESET_AT: usize = 1_200;

    let mut sim = Sim::spawn(SimConfig {
        faults: FaultPlan {
            garbage: 0.01,
            garbage_max: 24,
            bit_flip: 0.01,
            truncate: 0.01,
            duplicate: 0.01,
            drop_host: 0.01,
        },
        record_events: true,
        ..sim_config(0x5EED)
    })
    .unwrap();
    let events = sim.take_events().unwrap();
    let mut link = Link::spawn(link_config(PortChoice::Path(sim.path().to_owned()))).unwrap();
    assert!(wait_connected(&link, Duration::from_secs(5)).await);

    let mut rng = StdRng::seed_from_u64(7);
    let thrown: Vec<(u8, u8)> = (0..ROLLS)
        .map(|_| {
            let sides = if rng.random_bool(0.8) { 6 } else { 20 };
            (sides, rng.random_range(1..=sides))
        })
        .collect();
    let mut got: Vec<Roll> = Vec::with_capacity(ROLLS);
    let started = Instant::now();
    let mut sent = 0;
    while got.len() < ROLLS {
        while sent < ROLLS && sent - got.len() < WINDOW {
            if DROPS_AT.contains(&sent) {
                sim.send(Command::DropLink(Duration::from_millis(200)))
                    .unwrap();
            }
            if sent == RESET_AT && got.len() < sent {
                break; // drain first, see below
            }
            if sent == RESET_AT && got.len() == sent {
                // A reset loses what the tower holds (RAM), so reset once all is acked, as
                // a tower does when the power blips between throws.
                assert!(
                    sim_wait(&sim, Duration::from_secs(5), |s| s.held == 0).await,
                    "tower never got its acks"
                );
                sim.send(Command::Reset).unwrap();
            }
            let (sides, value) = thrown[sent];
            sim.send(Command::Roll { sides, value }).unwrap();
            sent += 1;
        }
        let roll = next_roll(&mut link, Duration::from_secs(10))
            .await
            .unwrap_or_else(|| panic!("stalled after {} rolls: {:#?}", got.len(), link.health()));
        got.push(roll);
    }
    let elapsed = started.elapsed();
    // No phantom rolls trail behind.
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(link.try_recv(), None, "a roll nobody threw");

    // Exactly the thrown dice, in order.
    let delivered: Vec<(u8, u8)> = got.iter().map(|r| (r.sides, r.value)).collect();
    assert_eq!(delivered.len(), thrown.len());
    let first_wrong = delivered.iter().zip(&thrown).position(|(a, b)| a != b);
    assert_eq!(first_wrong, None, "rolls differ from the dice thrown");

    // Two boots, seqs 1.. in each, strictly increasing: no duplicate, no gap.
    let mut boots: Vec<BootId> = Vec::new();
    let mut expect_seq = 1;
    for r in &got {
        let TowerRef::Framed { boot, .. } = r.device else {
            panic!("text roll")
        };
        if boots.last() != Some(&boot) {
            boots.push(boot);
            expect_seq = 1;
        }
        assert_eq!(r.seq, expect_seq);
        expect_seq += 1;
    }
    assert_eq!(boots.len(), 2, "one reset, two boots");
    assert_eq!(
        got.iter()
            .filter(|r| matches!(r.device, TowerRef::Framed { boot, .. } if boot == boots[1]))
            .count(),
        ROLLS - RESET_AT
    );

    // The faults really happened, and the link saw them.
    sim.sync().unwrap();
    let status = sim.status();
    let health = link.health();
    let inj = status.injected;
    assert!(inj.garbage > 0 && inj.bit_flips > 0 && inj.truncations > 0 && inj.duplicates > 0);
    assert!(inj.host_dropped > 0);
    assert_eq!(status.link_drops, 3);
    assert_eq!(status.resets, 1);
    assert_eq!(health.device_resets, 1);
    assert!(health.disconnects >= 3, "{health:#?}");
    assert!(health.duplicates > 0);
    assert!(health.errors.crc + health.errors.cobs + health.errors.too_long > 0);
    assert_eq!(health.rolls, ROLLS as u64);
    assert_eq!(health.rolls_lost, 0);

    // The simulator's own record agrees: every roll it made was delivered once.
    let made: BTreeSet<(u32, u32)> = events
        .try_iter()
        .filter_map(|e| match e {
            SimEvent::Rolled { boot, seq, .. } => Some((boot.0, seq)),
            _ => None,
        })
        .collect();
    let delivered_ids: BTreeSet<(u32, u32)> = got
        .iter()
        .filter_map(|r| match r.device {
            TowerRef::Framed { boot, .. } => Some((boot.0, r.seq)),
            TowerRef::Text => None,
        })
        .collect();
    assert_eq!(made, delivered_ids);

    println!(
        "{ROLLS} rolls in {elapsed:?}: injected {inj:?}; link dropped {} duplicates, refused {} frames \
         ({:?}), asked {} resends, {} reconnects",
        health.duplicates,
        health.errors.frames(),
        health.errors,
        health.resends_requested,
        health.disconnects,
    );
    link.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_mebibyte_of_random_bytes_yields_no_roll() {
    let sim = Sim::spawn(sim_config(0xBAD)).unwrap();
    let mut link = Link::spawn(link_config(PortChoice::Path(sim.path().to_owned()))).unwrap();
    assert!(wait_connected(&link, Duration::from_secs(5)).await);
    sim.roll(6, 1).unwrap();
    let before = next_roll(&mut link, Duration::from_secs(5)).await.unwrap();
    assert_eq!((before.sides, before.value, before.seq), (6, 1, 1));
    let refused_before = link.health().errors.frames();

    sim.send(Command::Noise(1 << 20)).unwrap();
    sim.sync().unwrap();
    assert!(sim.status().bytes_written >= 1 << 20);
    // Whatever the noise did, the link must not have made a roll of it.
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(link.try_recv(), None, "noise became a roll");

    // The link is still alive: the next real roll comes through, and only it.
    sim.roll(20, 20).unwrap();
    let after = next_roll(&mut link, Duration::from_secs(5)).await.unwrap();
    assert_eq!((after.sides, after.value, after.seq), (20, 20, 2));
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(link.try_recv(), None);
    let health = link.health();
    assert_eq!(health.rolls, 2);
    let refused = health.errors.frames() - refused_before;
    assert!(
        refused > 1000,
        "the noise reached the decoder: {:?}",
        health.errors
    );
    println!(
        "1 MiB noise: {refused} frames refused ({:?}), 0 rolls",
        health.errors
    );
    link.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unplug_and_replug_reconnects_within_two_seconds_and_loses_nothing() {
    let mut sim = Sim::spawn(SimConfig {
        record_events: true,
        ..sim_config(0xD0D0)
    })
    .unwrap();
    let events = sim.take_events().unwrap();
    let mut link = Link::spawn(link_config(PortChoice::Path(sim.path().to_owned()))).unwrap();
    assert!(wait_connected(&link, Duration::from_secs(5)).await);
    sim.roll(6, 3).unwrap();
    assert_eq!(
        next_roll(&mut link, Duration::from_secs(5))
            .await
            .unwrap()
            .value,
        3
    );

    let mut health = link.watch_health();
    let connects = link.health().connects;
    let unplugged = Instant::now();
    sim.send(Command::DropLink(Duration::from_millis(300)))
        .unwrap();
    // Dice thrown while the cable is out are held by the tower.
    sim.roll(6, 5).unwrap();
    sim.roll(6, 6).unwrap();
    tokio::time::timeout(
        Duration::from_secs(3),
        health.wait_for(|h| h.disconnects >= 1),
    )
    .await
    .unwrap()
    .unwrap();
    tokio::time::timeout(
        Duration::from_secs(3),
        health.wait_for(|h| h.connects > connects && h.state == LinkState::Connected),
    )
    .await
    .unwrap()
    .unwrap();
    let reconnected = unplugged.elapsed();
    let ups = events
        .try_iter()
        .filter(|e| matches!(e, SimEvent::LinkUp { .. }))
        .count();
    assert_eq!(ups, 2, "plugged at start, and again after the unplug");
    assert!(
        reconnected < Duration::from_secs(2),
        "reconnected after {reconnected:?}"
    );
    let a = next_roll(&mut link, Duration::from_secs(2)).await.unwrap();
    let b = next_roll(&mut link, Duration::from_secs(2)).await.unwrap();
    assert_eq!((a.seq, a.value, b.seq, b.value), (2, 5, 3, 6));
    println!("unplugged 300 ms: connected again {reconnected:?} after the unplug");
    link.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn discovery_finds_the_tower_among_other_ports_and_refinds_it_after_an_unplug() {
    let dir = tempfile::tempdir().unwrap();
    // A port whose device never answers, and a printing tower that cannot answer a ping.
    let (_silent_master, silent) = serialport::TTYPort::pair().unwrap();
    let noisy = Sim::spawn(SimConfig {
        wire: WireMode::Text,
        heartbeat: None,
        ..sim_config(1)
    })
    .unwrap();
    let sim = Sim::spawn(sim_config(2)).unwrap();
    let by_id = dir.path().join("by-id");
    std::fs::create_dir(&by_id).unwrap();
    std::os::unix::fs::symlink(
        silent.name().unwrap(),
        by_id.join("usb-A_Silent_Thing-if00"),
    )
    .unwrap();
    std::os::unix::fs::symlink(noisy.path(), by_id.join("usb-B_Printer-if00")).unwrap();
    std::os::unix::fs::symlink(sim.path(), by_id.join("usb-C_Tableside_Tower-if00")).unwrap();
    let discovery = Discovery {
        by_id_dir: Some(by_id.clone()),
        dev_dir: None,
        ..Discovery::default()
    };
    assert_eq!(discovery.candidates().len(), 3);
    let mut link = Link::spawn(link_config(PortChoice::Discover(discovery))).unwrap();
    assert!(wait_connected(&link, Duration::from_secs(5)).await);
    assert_eq!(
        link.health().port,
        Some(by_id.join("usb-C_Tableside_Tower-if00"))
    );
    sim.roll(20, 7).unwrap();
    assert_eq!(
        next_roll(&mut link, Duration::from_secs(2))
            .await
            .unwrap()
            .value,
        7
    );

    // Unplugged and back: found again (the port that worked is tried first).
    sim.send(Command::DropLink(Duration::from_millis(200)))
        .unwrap();
    sim.roll(20, 8).unwrap();
    let r = next_roll(&mut link, Duration::from_secs(3)).await.unwrap();
    assert_eq!((r.seq, r.value), (2, 8));
    link.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reset_tower_is_not_mistaken_for_a_duplicate() {
    let sim = Sim::spawn(sim_config(3)).unwrap();
    let mut link = Link::spawn(link_config(PortChoice::Path(sim.path().to_owned()))).unwrap();
    assert!(wait_connected(&link, Duration::from_secs(5)).await);
    for v in 1..=3 {
        sim.roll(6, v).unwrap();
    }
    let mut first = Vec::new();
    for _ in 0..3 {
        first.push(next_roll(&mut link, Duration::from_secs(2)).await.unwrap());
    }
    assert!(sim_wait(&sim, Duration::from_secs(2), |s| s.held == 0).await);
    sim.send(Command::Reset).unwrap();
    for v in 4..=6 {
        sim.roll(6, v).unwrap();
    }
    let mut second = Vec::new();
    for _ in 0..3 {
        second.push(next_roll(&mut link, Duration::from_secs(2)).await.unwrap());
    }
    let seqs = |rs: &[Roll]| rs.iter().map(|r| (r.seq, r.value)).collect::<Vec<_>>();
    assert_eq!(seqs(&first), vec![(1, 1), (2, 2), (3, 3)]);
    assert_eq!(
        seqs(&second),
        vec![(1, 4), (2, 5), (3, 6)],
        "same seqs, new boot"
    );
    assert_ne!(first[0].device, second[0].device);
    assert_eq!(link.health().device_resets, 1);
    assert_eq!(link.health().duplicates, 0);
    link.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn text_mode_delivers_lines_and_cannot_tell_a_duplicate() {
    let sim = Sim::spawn(SimConfig {
        wire: WireMode::Text,
        ..sim_config(4)
    })
    .unwrap();
    let config = LinkConfig {
        wire: WireMode::Text,
        ..link_config(PortChoice::Path(sim.path().to_owned()))
    };
    let mut link = Link::spawn(config).unwrap();
    assert!(wait_connected(&link, Duration::from_secs(5)).await);
    sim.send(Command::Raw(b"tower v0.1 booting\n".to_vec()))
        .unwrap();
    sim.roll(6, 4).unwrap();
    sim.send(Command::Inject(Injection::Duplicate)).unwrap();
    sim.roll(20, 13).unwrap();
    sim.send(Command::Raw(b"ROLL d6 9\n".to_vec())).unwrap();
    let mut got = Vec::new();
    for _ in 0..3 {
        got.push(next_roll(&mut link, Duration::from_secs(2)).await.unwrap());
    }
    let rolls: Vec<_> = got
        .iter()
        .map(|r| (r.device, r.seq, r.sides, r.value))
        .collect();
    assert_eq!(
        rolls,
        vec![
            (TowerRef::Text, 1, 6, 4),
            (TowerRef::Text, 2, 20, 13),
            // The documented weakness: a repeated line is a second roll.
            (TowerRef::Text, 3, 20, 13),
        ]
    );
    tokio::time::sleep(Duration::from_millis(100)).await;
    let health = link.health();
    assert_eq!(health.ignored_lines, 1);
    assert_eq!(health.errors.bad_lines, 1, "ROLL d6 9 is refused");
    link.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_throw_of_two_dice_arrives_with_one_throw_id_and_two_seqs() {
    let mut sim = Sim::spawn(SimConfig {
        record_events: true,
        ..sim_config(6)
    })
    .unwrap();
    let events = sim.take_events().unwrap();
    let mut link = Link::spawn(link_config(PortChoice::Path(sim.path().to_owned()))).unwrap();
    assert!(wait_connected(&link, Duration::from_secs(5)).await);
    sim.roll(20, 11).unwrap();
    // The throw's first frame is damaged: the die comes back by resend, throw id unchanged.
    sim.send(Command::Inject(Injection::BitFlip)).unwrap();
    sim.throw(&[(6, 3), (6, 5)]).unwrap();
    sim.send(Command::Inject(Injection::Duplicate)).unwrap();
    sim.send(Command::ThrowRandom).unwrap();
    let mut got = Vec::new();
    for _ in 0..3 {
        got.push(next_roll(&mut link, Duration::from_secs(3)).await.unwrap());
    }
    let rolls: Vec<_> = got
        .iter()
        .map(|r| (r.seq, r.throw, r.die, r.sides, r.value))
        .collect();
    assert_eq!(
        rolls,
        vec![(1, 1, 2, 20, 11), (2, 2, 0, 6, 3), (3, 2, 1, 6, 5)],
        "seq, throw, die, sides, value"
    );
    // The random throw: one or two dice, all of throw 4, seqs from 4.
    sim.sync().unwrap();
    let random: Vec<(u32, u32)> = events
        .try_iter()
        .filter_map(|e| match e {
            SimEvent::Rolled { seq, throw, .. } if seq > 3 => Some((seq, throw)),
            _ => None,
        })
        .collect();
    assert!(
        random == [(4, 4)] || random == [(4, 4), (5, 4)],
        "{random:?}"
    );
    for (seq, throw) in random {
        let r = next_roll(&mut link, Duration::from_secs(3)).await.unwrap();
        assert_eq!((r.seq, r.throw), (seq, throw));
    }
    assert!(
        next_roll(&mut link, Duration::from_millis(200))
            .await
            .is_none()
    );
    link.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn text_mode_prints_a_throw_on_one_line_and_each_line_is_one_throw() {
    let sim = Sim::spawn(SimConfig {
        wire: WireMode::Text,
        ..sim_config(7)
    })
    .unwrap();
    let config = LinkConfig {
        wire: WireMode::Text,
        ..link_config(PortChoice::Path(sim.path().to_owned()))
    };
    let mut link = Link::spawn(config).unwrap();
    assert!(wait_connected(&link, Duration::from_secs(5)).await);
    sim.roll(6, 4).unwrap();
    sim.throw(&[(6, 3), (6, 5)]).unwrap(); // `ROLL 2d6 3 5`
    sim.throw(&[(6, 1), (20, 20)]).unwrap(); // mixed: two lines, two throws
    sim.send(Command::Raw(b"ROLL 3d8 1 2 3\nROLL 2d6 1\n".to_vec()))
        .unwrap();
    let mut got = Vec::new();
    for _ in 0..8 {
        got.push(next_roll(&mut link, Duration::from_secs(2)).await.unwrap());
    }
    let rolls: Vec<_> = got
        .iter()
        .map(|r| (r.seq, r.throw, r.sides, r.value))
        .collect();
    assert_eq!(
        rolls,
        vec![
            (1, 1, 6, 4),
            (2, 2, 6, 3),
            (3, 2, 6, 5),
            (4, 4, 6, 1),
            (5, 5, 20, 20),
            (6, 6, 8, 1),
            (7, 6, 8, 2),
            (8, 6, 8, 3),
        ],
        "seq, throw, sides, value"
    );
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert_eq!(
        link.health().errors.bad_lines,
        1,
        "ROLL 2d6 1 is refused whole"
    );
    assert!(
        next_roll(&mut link, Duration::from_millis(100))
            .await
            .is_none()
    );
    link.shutdown().await;
}

#[test]
fn link_runs_on_its_own_thread_for_non_async_apps() {
    let sim = Sim::spawn(sim_config(5)).unwrap();
    let mut link = Link::start(link_config(PortChoice::Path(sim.path().to_owned()))).unwrap();
    assert!(sim.wait_for(Duration::from_secs(5), |s| s.pings > 0));
    sim.roll(6, 2).unwrap();
    let end = Instant::now() + Duration::from_secs(5);
    let roll = loop {
        if let Some(r) = link.try_recv() {
            break r;
        }
        assert!(Instant::now() < end, "no roll: {:#?}", link.health());
        std::thread::sleep(Duration::from_millis(5));
    };
    assert_eq!((roll.sides, roll.value), (6, 2));
    link.stop();
    assert_eq!(link.health().state, LinkState::Stopped);
}

/// A notify callback that counts its calls.
fn counting_notify() -> (
    firmware_bridge::link::Notify,
    std::sync::Arc<std::sync::atomic::AtomicUsize>,
) {
    let n = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let c = n.clone();
    let notify = firmware_bridge::link::Notify(std::sync::Arc::new(move || {
        c.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }));
    (notify, n)
}

/// A window woken by the link (its notify callback) must not be woken for the retries of a
/// tower that is not there, nor for the heartbeats of one that is: only for what the screen
/// shows (the link went down, came up, a roll, a loss).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_link_wakes_the_window_only_for_what_the_screen_shows() {
    use std::sync::atomic::Ordering::Relaxed;
    // Absent: retried every 20 ms for a second, about 50 port failures.
    let (notify, woken) = counting_notify();
    let link = Link::spawn(LinkConfig {
        backoff_initial: Duration::from_millis(5),
        backoff_max: Duration::from_millis(20),
        notify: Some(notify),
        ..link_config(PortChoice::Path("/dev/ttyTABLESIDE-absent".into()))
    })
    .unwrap();
    tokio::time::sleep(Duration::from_secs(1)).await;
    let failures = link.health().errors.io;
    assert!(failures >= 20, "the link retried only {failures} times");
    let wakes = woken.load(Relaxed);
    assert!(
        wakes <= 3,
        "{wakes} wakes for {failures} retries of an absent tower"
    );
    drop(link);

    // Present and idle: heartbeats every 50 ms for a second, then one roll.
    let sim = Sim::spawn(sim_config(0x1D1E)).unwrap();
    let (notify, woken) = counting_notify();
    let mut link = Link::spawn(LinkConfig {
        notify: Some(notify),
        ..link_config(PortChoice::Path(sim.path().to_owned()))
    })
    .unwrap();
    assert!(wait_connected(&link, Duration::from_secs(5)).await);
    tokio::time::sleep(Duration::from_millis(100)).await;
    let before = woken.load(Relaxed);
    let heartbeats_before = link.health().last_heartbeat;
    tokio::time::sleep(Duration::from_secs(1)).await;
    assert_ne!(
        link.health().last_heartbeat,
        heartbeats_before,
        "no heartbeat arrived"
    );
    let idle_wakes = woken.load(Relaxed) - before;
    assert!(
        idle_wakes <= 1,
        "{idle_wakes} wakes in a second of heartbeats"
    );
    sim.send(Command::Roll { sides: 6, value: 4 }).unwrap();
    let roll = next_roll(&mut link, Duration::from_secs(5)).await;
    assert!(roll.is_some(), "the roll did not arrive");
    assert!(
        woken.load(Relaxed) > before + idle_wakes,
        "a roll did not wake the window"
    );
}
