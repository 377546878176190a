//! A fault injector on the serial line between a tower and the host, blind to the protocol.
//!
//! The proxy opens the tower's port (the simulator's pty, or a real tower) as a host would,
//! publishes a port of its own for the host (a symlink to a new pty, like [`super::Sim`]
//! does), and copies bytes both ways through a damaging wire:
//!
//! - it knows nothing of frames, messages, CRCs or lines, only which byte ends a record
//!   ([`ProxyConfig::delimiter`]: `0x00` for framed mode, `\n` for line mode), so that its
//!   fault rates are per record: a bit flipped anywhere in the record (its delimiter too),
//!   the record dropped, sent twice, cut short (its end and delimiter lost), or preceded by
//!   random bytes. Each direction has its own rates ([`WireFaults`]);
//! - it paces each direction to a baud rate (10 bit times a byte, as 8N1 on a UART), so a
//!   record arrives when its last byte would, and a burst queues behind the bytes before it;
//! - it unplugs the host's side ([`Proxy::unplug`]: the host's port closes and comes back
//!   under the same path after a while), and it holds the tower's reset line
//!   ([`Proxy::on_reset`], [`Proxy::reset_tower`]).
//!
//! ```no_run
//! use std::time::Duration;
//! use firmware_bridge::sim::{Sim, SimConfig};
//! use firmware_bridge::sim::proxy::{Proxy, ProxyConfig, WireFaults};
//!
//! let sim = Sim::spawn(SimConfig::default()).unwrap();
//! let heavy = WireFaults { bit_flip: 0.05, drop: 0.02, ..WireFaults::default() };
//! let proxy = Proxy::spawn(ProxyConfig {
//!     baud: Some(115_200),
//!     to_host: heavy,
//!     to_tower: heavy,
//!     ..ProxyConfig::new(sim.path())
//! }).unwrap();
//! println!("host, open {}", proxy.path().display());
//! proxy.unplug(Duration::from_secs(2));
//! ```

use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use serialport::{SerialPort, TTYPort};

use super::SimError;

/// Damage on one direction of the wire, each a probability per record (exclusive: at most
/// one per record). All zero by default.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct WireFaults {
    /// One random bit of the record inverted.
    pub bit_flip: f64,
    /// The record never arrives.
    pub drop: f64,
    /// The record arrives twice.
    pub duplicate: f64,
    /// Only a random first part of the record arrives (no delimiter).
    pub truncate: f64,
    /// 1 to `garbage_max` random bytes arrive before the record.
    pub garbage: f64,
    /// The longest burst of random bytes.
    pub garbage_max: usize,
}

impl WireFaults {
    /// The heavy damage of issue 20, per record: 5 % bit flips, 2 % drops, and 1 % each of
    /// repeats, cut-short records and bursts of up to 16 random bytes.
    pub fn heavy() -> WireFaults {
        WireFaults {
            bit_flip: 0.05,
            drop: 0.02,
            duplicate: 0.01,
            truncate: 0.01,
            garbage: 0.01,
            garbage_max: 16,
        }
    }
}

/// How the proxy is set up.
#[derive(Clone, Debug)]
pub struct ProxyConfig {
    /// The tower's port.
    pub upstream: PathBuf,
    /// Where to publish the host's port (`None`: a `tty` symlink in a new temporary
    /// directory).
    pub link_path: Option<PathBuf>,
    /// Pace each direction to this many bits per second (10 bits a byte), `None`: as fast
    /// as the ptys go.
    pub baud: Option<u32>,
    /// The byte that ends a record (`0x00` for frames, `b'\n'` for lines).
    pub delimiter: u8,
    /// Damage to bytes from the tower to the host.
    pub to_host: WireFaults,
    /// Damage to bytes from the host to the tower.
    pub to_tower: WireFaults,
    /// Seed of the damage.
    pub seed: u64,
}

impl ProxyConfig {
    /// A clean, unpaced wire to the tower at `upstream`, for frames.
    pub fn new(upstream: impl Into<PathBuf>) -> ProxyConfig {
        ProxyConfig {
            upstream: upstream.into(),
            link_path: None,
            baud: None,
            delimiter: 0,
            to_host: WireFaults::default(),
            to_tower: WireFaults::default(),
            seed: 1,
        }
    }
}

/// What one direction of the wire carried and did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DirectionStats {
    /// Bytes read from the sender.
    pub bytes_in: u64,
    /// Bytes written to the receiver (damage and pacing included).
    pub bytes_out: u64,
    /// Records read from the sender.
    pub records: u64,
    /// Bytes thrown away because the host's side was unplugged.
    pub discarded: u64,
    /// Bits flipped.
    pub bit_flips: u64,
    /// Records dropped.
    pub drops: u64,
    /// Records sent twice.
    pub duplicates: u64,
    /// Records cut short.
    pub truncations: u64,
    /// Bursts of random bytes.
    pub garbage: u64,
}

/// What the proxy did so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ProxyStats {
    /// Tower → host.
    pub to_host: DirectionStats,
    /// Host → tower.
    pub to_tower: DirectionStats,
    /// Unplugs of the host's side.
    pub unplugs: u64,
    /// Resets of the tower through its reset line.
    pub resets: u64,
}

/// The host's side: a pty whose slave the host opens.
struct HostSide {
    writer: TTYPort,
    _slave: TTYPort,
}

type ResetHook = Box<dyn Fn() + Send>;

struct Shared {
    path: PathBuf,
    host: Mutex<Option<HostSide>>,
    host_reader: Mutex<Option<(u64, TTYPort)>>,
    /// The tower's port, for writing (a clone of the one the up thread reads).
    upstream_writer: Mutex<Option<TTYPort>>,
    generation: Mutex<u64>,
    replug_at: Mutex<Option<Instant>>,
    faults: Mutex<(WireFaults, WireFaults)>,
    stats: Mutex<ProxyStats>,
    reset: Mutex<Option<ResetHook>>,
    stop: AtomicBool,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// A running proxy. Dropping it stops it and removes the host's port.
pub struct Proxy {
    shared: Arc<Shared>,
    threads: Vec<JoinHandle<()>>,
    _dir: Option<tempfile::TempDir>,
}

impl std::fmt::Debug for Proxy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Proxy")
            .field("path", &self.shared.path)
            .finish_non_exhaustive()
    }
}

/// Paces one direction: each byte takes `byte_time` on the wire.
struct Pacer {
    byte_time: Option<Duration>,
    free_at: Instant,
}

impl Pacer {
    fn new(baud: Option<u32>) -> Pacer {
        Pacer {
            byte_time: baud
                .filter(|b| *b > 0)
                .map(|b| Duration::from_secs_f64(10.0 / f64::from(b))),
            free_at: Instant::now(),
        }
    }

    /// Waits until `n` more bytes have gone through the wire.
    fn wait_for(&mut self, n: usize) {
        let Some(t) = self.byte_time else { return };
        let now = Instant::now();
        let start = self.free_at.max(now);
        self.free_at = start + t * u32::try_from(n).unwrap_or(u32::MAX);
        let wait = self.free_at.saturating_duration_since(now);
        if !wait.is_zero() {
            std::thread::sleep(wait);
        }
    }
}

/// Splits bytes into records and damages them.
pub(crate) struct Damage {
    delimiter: u8,
    record: Vec<u8>,
    rng: StdRng,
}

/// The longest record kept whole: longer runs without a delimiter are passed on in pieces.
const MAX_RECORD: usize = 256;

impl Damage {
    /// Damage to records ending in `delimiter`, drawn from `seed`.
    pub(crate) fn new(delimiter: u8, seed: u64) -> Damage {
        Damage {
            delimiter,
            record: Vec::new(),
            rng: StdRng::seed_from_u64(seed),
        }
    }

    /// Takes bytes; returns the records completed (damaged) as the bytes to send.
    pub(crate) fn push(
        &mut self,
        bytes: &[u8],
        faults: &WireFaults,
        stats: &mut DirectionStats,
    ) -> Vec<u8> {
        let mut out = Vec::new();
        for &b in bytes {
            self.record.push(b);
            if b == self.delimiter || self.record.len() >= MAX_RECORD {
                let record = std::mem::take(&mut self.record);
                stats.records += 1;
                self.damage(record, faults, stats, &mut out);
            }
        }
        out
    }

    fn damage(
        &mut self,
        mut record: Vec<u8>,
        f: &WireFaults,
        stats: &mut DirectionStats,
        out: &mut Vec<u8>,
    ) {
        let r: f64 = self.rng.random();
        let mut edge = f.drop;
        if r < edge {
            stats.drops += 1;
            return;
        }
        edge += f.bit_flip;
        if r < edge {
            stats.bit_flips += 1;
            let i = self.rng.random_range(0..record.len().max(1));
            let bit = self.rng.random_range(0..8u32);
            if let Some(b) = record.get_mut(i) {
                *b ^= 1 << bit;
            }
            out.extend(record);
            return;
        }
        edge += f.truncate;
        if r < edge && record.len() > 1 {
            stats.truncations += 1;
            let keep = self.rng.random_range(1..record.len());
            record.truncate(keep);
            out.extend(record);
            return;
        }
        edge += f.duplicate;
        if r < edge {
            stats.duplicates += 1;
            out.extend_from_slice(&record);
            out.extend(record);
            return;
        }
        edge += f.garbage;
        if r < edge {
            stats.garbage += 1;
            let n = self.rng.random_range(1..=f.garbage_max.max(1));
            let mut noise = vec![0u8; n];
            self.rng.fill(&mut noise[..]);
            out.extend(noise);
        }
        out.extend(record);
    }
}

fn open_upstream(path: &Path) -> Option<TTYPort> {
    let port = serialport::new(path.to_string_lossy(), 115_200)
        .timeout(Duration::from_millis(10))
        .open_native()
        .ok()?;
    let _ = port.clear(serialport::ClearBuffer::Input);
    Some(port)
}

impl Shared {
    /// Opens a new pty for the host and points the published path at it.
    fn plug(&self) -> Result<(), SimError> {
        let (mut master, slave) = TTYPort::pair()?;
        let tty = PathBuf::from(slave.name().ok_or(SimError::Config("pty has no name"))?);
        master.set_timeout(Duration::from_millis(200))?;
        let mut reader = master.try_clone_native()?;
        reader.set_timeout(Duration::from_millis(10))?;
        let tmp = self.path.with_extension("new");
        let _ = std::fs::remove_file(&tmp);
        std::os::unix::fs::symlink(&tty, &tmp)?;
        std::fs::rename(&tmp, &self.path)?;
        let generation = {
            let mut g = lock(&self.generation);
            *g += 1;
            *g
        };
        *lock(&self.host) = Some(HostSide {
            writer: master,
            _slave: slave,
        });
        *lock(&self.host_reader) = Some((generation, reader));
        Ok(())
    }

    fn unplug(&self, down: Duration) {
        let host = lock(&self.host).take();
        let reader = lock(&self.host_reader).take();
        if host.is_some() {
            let _ = std::fs::remove_file(&self.path);
            lock(&self.stats).unplugs += 1;
        }
        drop((host, reader));
        *lock(&self.replug_at) = Some(Instant::now() + down);
    }

    fn replug_if_due(&self) {
        let due = lock(&self.replug_at).is_some_and(|t| Instant::now() >= t);
        if due {
            let ok = self.plug().is_ok();
            *lock(&self.replug_at) = if ok {
                None
            } else {
                Some(Instant::now() + Duration::from_millis(20))
            };
        }
    }

    /// Tower → host: read, damage, pace, write (or discard while unplugged).
    fn run_up(self: Arc<Self>, config: ProxyConfig) {
        let mut damage = Damage {
            delimiter: config.delimiter,
            record: Vec::new(),
            rng: StdRng::seed_from_u64(config.seed),
        };
        let mut pacer = Pacer::new(config.baud);
        let mut upstream: Option<TTYPort> = None;
        let mut buf = [0u8; 1024];
        while !self.stop.load(Ordering::Relaxed) {
            self.replug_if_due();
            let Some(port) = upstream.as_mut() else {
                upstream = open_upstream(&config.upstream);
                match &upstream {
                    Some(p) => *lock(&self.upstream_writer) = p.try_clone_native().ok(),
                    None => std::thread::sleep(Duration::from_millis(20)),
                }
                continue;
            };
            let n = match port.read(&mut buf) {
                Ok(0) => continue,
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::TimedOut => continue,
                Err(_) => {
                    // The tower's port went away (a simulated unplug upstream): reopen it.
                    upstream = None;
                    lock(&self.upstream_writer).take();
                    continue;
                }
            };
            let bytes = buf.get(..n).unwrap_or(&[]);
            let faults = lock(&self.faults).0;
            let out = {
                let mut stats = lock(&self.stats);
                stats.to_host.bytes_in += n as u64;
                if lock(&self.host).is_none() {
                    stats.to_host.discarded += n as u64;
                    damage.record.clear();
                    continue;
                }
                damage.push(bytes, &faults, &mut stats.to_host)
            };
            if out.is_empty() {
                continue;
            }
            pacer.wait_for(out.len());
            let mut host = lock(&self.host);
            if let Some(h) = host.as_mut() {
                let _ = h.writer.write_all(&out);
                lock(&self.stats).to_host.bytes_out += out.len() as u64;
            }
        }
    }

    /// Host → tower: read, damage, pace, write.
    fn run_down(self: Arc<Self>, config: ProxyConfig) {
        let mut damage = Damage {
            delimiter: config.delimiter,
            record: Vec::new(),
            rng: StdRng::seed_from_u64(config.seed ^ 0x5EED_D0D0),
        };
        let mut pacer = Pacer::new(config.baud);
        let mut buf = [0u8; 1024];
        let mut seen_generation = 0;
        while !self.stop.load(Ordering::Relaxed) {
            let read = {
                let mut reader = lock(&self.host_reader);
                match reader.as_mut() {
                    Some((generation, port)) => {
                        if *generation != seen_generation {
                            seen_generation = *generation;
                            damage.record.clear();
                        }
                        Some(port.read(&mut buf))
                    }
                    None => None,
                }
            };
            let n = match read {
                None => {
                    std::thread::sleep(Duration::from_millis(5));
                    continue;
                }
                Some(Ok(n)) if n > 0 => n,
                // Timeouts, or the host not holding the port open (EIO): wait.
                Some(Ok(_)) | Some(Err(_)) => {
                    std::thread::sleep(Duration::from_millis(2));
                    continue;
                }
            };
            let faults = lock(&self.faults).1;
            let out = {
                let mut stats = lock(&self.stats);
                stats.to_tower.bytes_in += n as u64;
                damage.push(buf.get(..n).unwrap_or(&[]), &faults, &mut stats.to_tower)
            };
            if out.is_empty() {
                continue;
            }
            pacer.wait_for(out.len());
            if let Some(port) = lock(&self.upstream_writer).as_mut()
                && port.write_all(&out).is_ok()
            {
                lock(&self.stats).to_tower.bytes_out += out.len() as u64;
            }
        }
    }
}

impl Proxy {
    /// Opens the host's port and starts copying (threads `tower-proxy-up` and
    /// `tower-proxy-down`).
    ///
    /// # Errors
    /// [`SimError`] if the pty or its symlink cannot be made.
    pub fn spawn(config: ProxyConfig) -> Result<Proxy, SimError> {
        let (dir, path) = match &config.link_path {
            Some(p) => (None, p.clone()),
            None => {
                let dir = tempfile::Builder::new().prefix("tower-proxy-").tempdir()?;
                let path = dir.path().join("tty");
                (Some(dir), path)
            }
        };
        let shared = Arc::new(Shared {
            path,
            host: Mutex::new(None),
            host_reader: Mutex::new(None),
            upstream_writer: Mutex::new(None),
            generation: Mutex::new(0),
            replug_at: Mutex::new(None),
            faults: Mutex::new((config.to_host, config.to_tower)),
            stats: Mutex::new(ProxyStats::default()),
            reset: Mutex::new(None),
            stop: AtomicBool::new(false),
        });
        shared.plug()?;
        let up = {
            let shared = shared.clone();
            let config = config.clone();
            std::thread::Builder::new()
                .name("tower-proxy-up".to_owned())
                .spawn(move || shared.run_up(config))?
        };
        let down = {
            let shared = shared.clone();
            std::thread::Builder::new()
                .name("tower-proxy-down".to_owned())
                .spawn(move || shared.run_down(config))?
        };
        Ok(Proxy {
            shared,
            threads: vec![up, down],
            _dir: dir,
        })
    }

    /// The port the host opens: a symlink to the current pty, stable across unplugs.
    pub fn path(&self) -> &Path {
        &self.shared.path
    }

    /// Pulls the host's cable for `down`: its port closes now and a new one is published
    /// under the same path after. What the tower sends meanwhile goes nowhere.
    pub fn unplug(&self, down: Duration) {
        self.shared.unplug(down);
    }

    /// Whether the host's side is plugged in.
    pub fn plugged(&self) -> bool {
        lock(&self.shared.host).is_some()
    }

    /// Replaces the damage rates of both directions.
    pub fn set_faults(&self, to_host: WireFaults, to_tower: WireFaults) {
        *lock(&self.shared.faults) = (to_host, to_tower);
    }

    /// Wires the tower's reset line: `hook` runs on [`Proxy::reset_tower`] (e.g. a
    /// simulator's `Command::Reset`).
    pub fn on_reset(&self, hook: impl Fn() + Send + 'static) {
        *lock(&self.shared.reset) = Some(Box::new(hook));
    }

    /// Pulses the tower's reset line (nothing happens if none is wired).
    pub fn reset_tower(&self) {
        if let Some(hook) = lock(&self.shared.reset).as_ref() {
            hook();
            lock(&self.shared.stats).resets += 1;
        }
    }

    /// What the proxy carried and did so far.
    pub fn stats(&self) -> ProxyStats {
        *lock(&self.shared.stats)
    }

    /// Stops the proxy and removes the host's port.
    pub fn shutdown(mut self) {
        self.stop();
    }

    fn stop(&mut self) {
        self.shared.stop.store(true, Ordering::Relaxed);
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
        lock(&self.shared.host).take();
        lock(&self.shared.host_reader).take();
        let _ = std::fs::remove_file(&self.shared.path);
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        self.stop();
    }
}

/// A run in real time through the proxy: the simulated tower, the proxy paced to `baud`
/// with `faults` in both directions, and the host link on its own thread, with a throw of one
/// or two dice every `every` (see [`run_paced`]).
#[derive(Clone, Debug)]
pub struct PacedRun {
    /// Throws to make.
    pub throws: usize,
    /// One throw this often.
    pub every: Duration,
    /// The line's speed.
    pub baud: u32,
    /// Damage, each direction.
    pub faults: WireFaults,
    /// Seed of the dice and the damage.
    pub seed: u64,
}

/// What a [`PacedRun`] measured.
#[derive(Clone, Debug, Default)]
pub struct PacedReport {
    /// Rolls the tower made.
    pub made: usize,
    /// From the tower writing each roll's first frame to the link delivering it, sorted; one
    /// per roll delivered.
    pub delays: Vec<Duration>,
    /// Rolls the link reported lost.
    pub lost: u64,
    /// What the proxy carried.
    pub stats: ProxyStats,
}

impl PacedReport {
    /// The `p` quantile of the delays (0.99: p99).
    pub fn percentile(&self, p: f64) -> Duration {
        let n = self.delays.len();
        let i = ((n.max(1) as f64 - 1.0) * p.clamp(0.0, 1.0)).round() as usize;
        self.delays.get(i).copied().unwrap_or_default()
    }

    /// Bytes on the wire, both directions, per roll made.
    pub fn bytes_per_roll(&self) -> f64 {
        (self.stats.to_host.bytes_out + self.stats.to_tower.bytes_out) as f64
            / self.made.max(1) as f64
    }
}

/// Runs a [`PacedRun`] (blocking: it takes `throws × every`, then waits up to 15 s for the
/// last rolls).
///
/// # Errors
/// [`SimError`] if the simulator, the proxy or the link cannot start, or the link does not
/// connect within 5 s.
pub fn run_paced(run: &PacedRun) -> Result<PacedReport, SimError> {
    use super::{Command, Sim, SimConfig, SimEvent};
    use crate::link::{Link, LinkConfig, StartFrom};
    let mut sim = Sim::spawn(SimConfig {
        seed: Some(run.seed),
        record_events: true,
        ..SimConfig::default()
    })?;
    let events = sim.take_events().ok_or(SimError::Stopped)?;
    let proxy = Proxy::spawn(ProxyConfig {
        baud: Some(run.baud),
        to_host: run.faults,
        to_tower: run.faults,
        seed: run.seed,
        ..ProxyConfig::new(sim.path())
    })?;
    let mut link = Link::start(LinkConfig {
        start: StartFrom::Held,
        ..LinkConfig::path(proxy.path())
    })
    .map_err(|_| SimError::Config("the link could not start"))?;
    let deadline = Instant::now() + Duration::from_secs(5);
    while !link.health().is_connected() {
        if Instant::now() > deadline {
            return Err(SimError::Config("the link did not connect"));
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let mut arrived: Vec<(u32, Instant)> = Vec::new();
    let take = |link: &mut Link, arrived: &mut Vec<(u32, Instant)>| {
        while let Some(r) = link.try_recv() {
            arrived.push((r.seq, r.received_at));
        }
    };
    let start = Instant::now();
    for k in 0..run.throws {
        let due = start + run.every * u32::try_from(k).unwrap_or(u32::MAX);
        while Instant::now() < due {
            take(&mut link, &mut arrived);
            std::thread::sleep(Duration::from_millis(2));
        }
        sim.send(Command::ThrowRandom)?;
    }
    sim.sync()?;
    let written: std::collections::BTreeMap<u32, Instant> = events
        .try_iter()
        .filter_map(|e| match e {
            SimEvent::Rolled {
                seq,
                written_at: Some(at),
                ..
            } => Some((seq, at)),
            _ => None,
        })
        .collect();
    let end = Instant::now() + Duration::from_secs(15);
    loop {
        take(&mut link, &mut arrived);
        if arrived.len() >= written.len() || Instant::now() > end {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let mut delays: Vec<Duration> = arrived
        .iter()
        .filter_map(|(seq, at)| written.get(seq).map(|w| at.saturating_duration_since(*w)))
        .collect();
    delays.sort();
    let report = PacedReport {
        made: written.len(),
        delays,
        lost: link.health().rolls_lost,
        stats: proxy.stats(),
    };
    link.stop();
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn damage_is_per_record_and_counted() {
        let mut d = Damage {
            delimiter: 0,
            record: Vec::new(),
            rng: StdRng::seed_from_u64(3),
        };
        let mut stats = DirectionStats::default();
        let clean = d.push(&[1, 2, 3, 0, 4, 5], &WireFaults::default(), &mut stats);
        assert_eq!(
            clean,
            vec![1, 2, 3, 0],
            "a record goes out when its delimiter came"
        );
        let rest = d.push(&[0], &WireFaults::default(), &mut stats);
        assert_eq!(rest, vec![4, 5, 0]);
        let drop_all = WireFaults {
            drop: 1.0,
            ..WireFaults::default()
        };
        assert!(d.push(&[7, 0, 8, 0], &drop_all, &mut stats).is_empty());
        assert_eq!((stats.records, stats.drops), (4, 2));
        let flip = WireFaults {
            bit_flip: 1.0,
            ..WireFaults::default()
        };
        let flipped = d.push(&[9, 9, 9, 0], &flip, &mut stats);
        let diff: u32 = flipped
            .iter()
            .zip([9u8, 9, 9, 0])
            .map(|(a, b)| (a ^ b).count_ones())
            .sum();
        assert_eq!(diff, 1, "exactly one bit");
        let dup = WireFaults {
            duplicate: 1.0,
            ..WireFaults::default()
        };
        assert_eq!(d.push(&[5, 0], &dup, &mut stats), vec![5, 0, 5, 0]);
    }

    #[test]
    fn pacing_takes_ten_bit_times_a_byte() {
        let mut p = Pacer::new(Some(115_200));
        let start = Instant::now();
        p.wait_for(1152); // 0.1 s of bytes
        let took = start.elapsed();
        assert!(took >= Duration::from_millis(99), "{took:?}");
    }
}
