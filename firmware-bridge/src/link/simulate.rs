//! The whole framed protocol on a simulated wire, in simulated time: the reference tower
//! ([`crate::tower::Tower`]) and the host link's own session logic, connected by a serial line
//! paced to a baud rate and damaged per frame in each direction ([`WireFaults`]). Nothing
//! sleeps, so 10,000 rolls thrown one every 0.4 s (over an hour of table time) take well under
//! a second, and every run with the same seed gives the same result.
//!
//! It answers what the pty tests cannot measure in seconds: whether acknowledgements and
//! resends converge under heavy noise at a real baud rate, how late a roll arrives at worst,
//! and how many bytes a roll costs on the wire. The same [`simulate`] runs in the test suite
//! and in the `link_latency` bench.
//!
//! ```
//! use std::time::Duration;
//! use firmware_bridge::link::simulate::{WireSim, simulate};
//! use firmware_bridge::sim::proxy::WireFaults;
//!
//! let noisy = WireFaults { bit_flip: 0.05, drop: 0.02, ..WireFaults::default() };
//! let report = simulate(&WireSim { rolls: 500, to_host: noisy, to_tower: noisy, ..WireSim::default() });
//! assert_eq!(report.delivered, 500);
//! assert!(report.exactly_once());
//! assert!(report.percentile(0.99) < Duration::from_secs(2));
//! ```

use std::collections::{BTreeMap, VecDeque};
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use crate::frame::{FrameDecoder, encode};
use crate::message::{BootId, DeviceId, DeviceMessage, DiceSet, FirmwareVersion};
use crate::sim::MAX_SIM_HISTORY;
use crate::sim::proxy::{Damage, DirectionStats, WireFaults};
use crate::tower::{Settled, Tower};

use super::session::{Outbox, Session, SessionConfig};
use super::{LinkConfig, LinkHealth, StartFrom, TowerRef};

/// What to simulate.
#[derive(Clone, Debug)]
pub struct WireSim {
    /// Dice to throw in all.
    pub rolls: usize,
    /// One throw this often.
    pub throw_every: Duration,
    /// The chance that a throw has two dice rather than one.
    pub two_dice: f64,
    /// The line's speed (10 bits a byte).
    pub baud: u32,
    /// Damage from the tower to the host, per frame.
    pub to_host: WireFaults,
    /// Damage from the host to the tower, per frame.
    pub to_tower: WireFaults,
    /// The tower's history (at most [`MAX_SIM_HISTORY`]).
    pub history: usize,
    /// The tower's heartbeat period.
    pub heartbeat: Duration,
    /// The host link's timings (its defaults by default).
    pub link: LinkConfig,
    /// Seed of the dice and of the damage.
    pub seed: u64,
}

impl Default for WireSim {
    fn default() -> WireSim {
        WireSim {
            rolls: 10_000,
            throw_every: Duration::from_millis(400),
            two_dice: 0.5,
            baud: 115_200,
            to_host: WireFaults::default(),
            to_tower: WireFaults::default(),
            history: crate::sim::FIRMWARE_HISTORY,
            heartbeat: Duration::from_secs(1),
            link: LinkConfig::path("simulated"),
            seed: 1,
        }
    }
}

/// What happened.
#[derive(Clone, Debug, Default)]
pub struct WireReport {
    /// Dice thrown.
    pub thrown: usize,
    /// Dice delivered to the app.
    pub delivered: usize,
    /// Deliveries of a roll already delivered (must be 0).
    pub repeated: usize,
    /// Deliveries out of order, or of a roll nobody threw, or with another value than thrown
    /// (must be 0).
    pub wrong: usize,
    /// Rolls reported lost, by sequence number.
    pub reported_lost: u64,
    /// Rolls neither delivered nor reported lost when the run ended (must be 0).
    pub silent: usize,
    /// Throw-to-delivery latency of each delivered roll, sorted.
    pub latencies: Vec<Duration>,
    /// Tower → host wire.
    pub to_host: DirectionStats,
    /// Host → tower wire.
    pub to_tower: DirectionStats,
    /// The link's counters at the end.
    pub health: LinkHealth,
    /// Simulated time from the first throw to the last delivery.
    pub span: Duration,
}

impl WireReport {
    /// Every thrown roll delivered once, in order, with its value, or reported lost.
    pub fn exactly_once(&self) -> bool {
        self.repeated == 0 && self.wrong == 0 && self.silent == 0
    }

    /// The `p` quantile of the latencies (0.5: median, 0.99: p99).
    pub fn percentile(&self, p: f64) -> Duration {
        let n = self.latencies.len();
        if n == 0 {
            return Duration::ZERO;
        }
        let i = ((n as f64 - 1.0) * p.clamp(0.0, 1.0)).round() as usize;
        self.latencies.get(i).copied().unwrap_or_default()
    }

    /// Bytes on the wire, both directions, per delivered roll.
    pub fn bytes_per_roll(&self) -> f64 {
        (self.to_host.bytes_out + self.to_tower.bytes_out) as f64 / self.delivered.max(1) as f64
    }
}

/// One direction of the wire: frames in flight, arriving when their last byte does.
struct Wire {
    damage: Damage,
    faults: WireFaults,
    stats: DirectionStats,
    byte_time: Duration,
    free_at: Duration,
    in_flight: VecDeque<(Duration, Vec<u8>)>,
}

impl Wire {
    fn new(faults: WireFaults, baud: u32, seed: u64) -> Wire {
        Wire {
            damage: Damage::new(0, seed),
            faults,
            stats: DirectionStats::default(),
            byte_time: Duration::from_secs_f64(10.0 / f64::from(baud.max(1))),
            free_at: Duration::ZERO,
            in_flight: VecDeque::new(),
        }
    }

    fn send(&mut self, now: Duration, bytes: &[u8]) {
        self.stats.bytes_in += bytes.len() as u64;
        let out = self.damage.push(bytes, &self.faults, &mut self.stats);
        if out.is_empty() {
            return;
        }
        self.stats.bytes_out += out.len() as u64;
        let start = self.free_at.max(now);
        self.free_at = start + self.byte_time * u32::try_from(out.len()).unwrap_or(u32::MAX);
        self.in_flight.push_back((self.free_at, out));
    }

    fn next_arrival(&self) -> Option<Duration> {
        self.in_flight.front().map(|(t, _)| *t)
    }
}

fn frames<M: crate::message::WireMessage>(msgs: &[M], resync: &mut bool) -> Vec<u8> {
    let mut bytes = Vec::new();
    if *resync && !msgs.is_empty() {
        bytes.push(0);
        *resync = false;
    }
    for m in msgs {
        if let Ok(f) = encode(m) {
            bytes.extend_from_slice(f.as_bytes());
        }
    }
    bytes
}

/// Runs the simulation to the end: every roll thrown, and then until each is delivered or
/// reported lost (or 120 simulated seconds after the last throw).
pub fn simulate(cfg: &WireSim) -> WireReport {
    let base = Instant::now();
    let at = |t: Duration| base + t;
    let mut rng = StdRng::seed_from_u64(cfg.seed);
    let mut to_host = Wire::new(cfg.to_host, cfg.baud, cfg.seed ^ 0xA5A5);
    let mut to_tower = Wire::new(cfg.to_tower, cfg.baud, cfg.seed ^ 0x5A5A);
    let Ok(tower) = Tower::<MAX_SIM_HISTORY>::new(
        DeviceId(0x7AB1_E51D_E000_0001),
        BootId(0x1234_5678),
        FirmwareVersion {
            major: 1,
            minor: 0,
            patch: 0,
        },
        DiceSet::new(&[6, 6]).unwrap_or_default(),
    ) else {
        return WireReport::default();
    };
    let mut tower = Box::new(tower.with_history_limit(cfg.history));
    let mut session = Session::new(
        SessionConfig {
            start: StartFrom::Held,
            resend_retry: cfg.link.resend_retry,
            ping_retry: cfg.link.ping_retry,
            reorder_window: cfg.link.reorder_window,
        },
        &[],
    );
    let mut health = LinkHealth::default();
    let mut host_rx = FrameDecoder::new();
    let mut host_resync = true;
    let mut tower_resync = true;
    let tick = Duration::from_millis(20);

    let mut report = WireReport::default();
    // seq -> (throw time, value)
    let mut thrown: BTreeMap<u32, (Duration, u8)> = BTreeMap::new();
    let mut last_delivered = 0u32;
    let mut done: BTreeMap<u32, ()> = BTreeMap::new();
    let mut lost_seqs: BTreeMap<u32, ()> = BTreeMap::new();
    let mut last_delivery = Duration::ZERO;

    let mut out = Outbox::default();
    session.connected(at(Duration::ZERO), &mut out);
    let hello = tower.hello();
    to_host.send(Duration::ZERO, &frames(&[hello], &mut tower_resync));

    let mut next_throw = Some(Duration::from_millis(100));
    let mut next_heartbeat = cfg.heartbeat;
    let mut next_tick = tick;
    let mut now = Duration::ZERO;
    let mut deadline: Option<Duration> = None;
    loop {
        // Host output from the last step goes on the wire.
        let mut host_out = std::mem::take(&mut out);
        for roll in host_out.rolls.drain(..) {
            let seq = roll.seq;
            match thrown.get(&seq) {
                Some(&(t, value)) if roll.value == value && seq > last_delivered => {
                    if done.insert(seq, ()).is_some() {
                        report.repeated += 1;
                    } else {
                        report.latencies.push(now.saturating_sub(t));
                        report.delivered += 1;
                        last_delivery = now;
                    }
                }
                _ if done.contains_key(&seq) => report.repeated += 1,
                _ => report.wrong += 1,
            }
            last_delivered = last_delivered.max(seq);
        }
        for loss in host_out.losses.drain(..) {
            if let super::Lost::Seqs { first, last } = loss.lost {
                for s in first..=last {
                    lost_seqs.insert(s, ());
                }
            }
            if !matches!(loss.tower, TowerRef::Framed { .. }) {
                report.wrong += 1;
            }
        }
        if !host_out.send.is_empty() {
            to_tower.send(now, &frames(&host_out.send, &mut host_resync));
        }
        let all_thrown = next_throw.is_none();
        if all_thrown && done.len() + lost_seqs.len() >= thrown.len() {
            break;
        }
        if deadline.is_some_and(|d| now >= d) {
            break;
        }
        // The next event.
        let candidates = [
            next_throw,
            Some(next_heartbeat),
            Some(next_tick),
            to_host.next_arrival(),
            to_tower.next_arrival(),
        ];
        let Some(t) = candidates.into_iter().flatten().min() else {
            break;
        };
        now = t;
        let now_ms = u32::try_from(now.as_millis() % (1 << 32)).unwrap_or(0);
        if next_throw == Some(now) {
            let n = if rng.random_bool(cfg.two_dice.clamp(0.0, 1.0)) {
                2
            } else {
                1
            };
            let n = n.min(cfg.rolls - report.thrown);
            let dice: Vec<Settled> = (0..n)
                .map(|i| Settled {
                    die: u8::try_from(i).unwrap_or(0),
                    sides: 6,
                    value: rng.random_range(1..=6),
                })
                .collect();
            let mut msgs = Vec::new();
            let first = tower.last_seq() + 1;
            if tower.throw(&dice, now_ms, &mut |m| msgs.push(m)).is_ok() {
                for (k, d) in dice.iter().enumerate() {
                    thrown.insert(first + u32::try_from(k).unwrap_or(0), (now, d.value));
                }
                report.thrown += n;
            }
            to_host.send(now, &frames(&msgs, &mut tower_resync));
            next_throw = if report.thrown >= cfg.rolls {
                deadline = Some(now + Duration::from_secs(120));
                None
            } else {
                Some(now + cfg.throw_every)
            };
            continue;
        }
        if next_heartbeat == now {
            next_heartbeat = now + cfg.heartbeat;
            let hb = tower.heartbeat(now_ms);
            to_host.send(now, &frames(&[hb], &mut tower_resync));
            continue;
        }
        if next_tick == now {
            next_tick = now + tick;
            session.tick(at(now), &mut health, &mut out);
            continue;
        }
        if to_host.next_arrival() == Some(now) {
            if let Some((_, bytes)) = to_host.in_flight.pop_front() {
                for b in bytes {
                    match host_rx.push::<DeviceMessage>(b) {
                        Some(Ok(msg)) => session.message(msg, at(now), &mut health, &mut out),
                        Some(Err(e)) => health.errors.count(e),
                        None => {}
                    }
                }
                session.flush_ack(&mut out);
            }
            continue;
        }
        if to_tower.next_arrival() == Some(now)
            && let Some((_, bytes)) = to_tower.in_flight.pop_front()
        {
            let mut msgs = Vec::new();
            tower.receive(&bytes, now_ms, &mut |m| msgs.push(m));
            to_host.send(now, &frames(&msgs, &mut tower_resync));
        }
    }
    report.reported_lost = lost_seqs.len() as u64;
    report.silent = thrown
        .keys()
        .filter(|s| !done.contains_key(s) && !lost_seqs.contains_key(s))
        .count();
    report.latencies.sort();
    report.to_host = to_host.stats;
    report.to_tower = to_tower.stats;
    report.health = health;
    report.span = last_delivery.saturating_sub(Duration::from_millis(100));
    report
}

#[cfg(test)]
mod tests {
    use super::*;

    fn heavy() -> WireFaults {
        WireFaults::heavy()
    }

    #[test]
    fn a_clean_wire_delivers_every_roll_at_once() {
        let r = simulate(&WireSim {
            rolls: 2_000,
            ..WireSim::default()
        });
        assert_eq!((r.thrown, r.delivered), (2_000, 2_000));
        assert!(r.exactly_once(), "{r:?}");
        assert!(
            r.percentile(1.0) < Duration::from_millis(10),
            "{:?}",
            r.percentile(1.0)
        );
        assert_eq!(r.health.resends_requested, 0);
    }

    #[test]
    fn ten_thousand_rolls_under_heavy_noise_both_ways_at_115200_baud() {
        let r = simulate(&WireSim {
            to_host: heavy(),
            to_tower: heavy(),
            ..WireSim::default()
        });
        println!(
            "heavy noise, 10,000 rolls: p50 {:?} p99 {:?} max {:?}, {:.1} bytes/roll, {} resends asked, {:?}",
            r.percentile(0.5),
            r.percentile(0.99),
            r.percentile(1.0),
            r.bytes_per_roll(),
            r.health.resends_requested,
            r.to_host,
        );
        assert_eq!(r.thrown, 10_000);
        assert!(r.exactly_once(), "{r:?}");
        assert_eq!(r.delivered, 10_000, "nothing lost: {:?}", r.health);
        let p99 = r.percentile(0.99);
        assert!(p99 < Duration::from_secs(2), "p99 {p99:?}");
        // Traffic stays proportional to the rolls: about 2 roll frames and an ack each.
        assert!(
            r.bytes_per_roll() < 80.0,
            "{} bytes per roll",
            r.bytes_per_roll()
        );
        assert!(r.to_host.bit_flips > 500 && r.to_tower.drops > 100);
    }

    #[test]
    fn a_tiny_history_overflows_loudly_never_silently() {
        // Every frame to the host is lost for a while: the tower's history (2) overflows.
        let r = simulate(&WireSim {
            rolls: 300,
            history: 2,
            to_host: WireFaults {
                drop: 0.6,
                ..WireFaults::default()
            },
            ..WireSim::default()
        });
        println!(
            "history 2, 60 % drops: {} delivered, {} reported lost",
            r.delivered, r.reported_lost
        );
        assert!(r.exactly_once(), "{r:?}");
        assert!(r.reported_lost > 0);
        assert_eq!(r.delivered as u64 + r.reported_lost, 300);
    }
}
