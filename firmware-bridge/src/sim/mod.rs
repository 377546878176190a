//! A simulated dice tower on a pseudo-terminal, with fault injection.
//!
//! [`Sim::spawn`] opens a pty pair, keeps the master end and publishes the slave end under a
//! stable path ([`Sim::path`], a symlink like the ones in `/dev/serial/by-id`), so the host
//! opens it exactly as it would open a real tower. The tower logic is [`crate::tower::Tower`];
//! the simulator adds a clock (heartbeats), random or scripted rolls, and faults:
//! noise, bit flips, truncated and duplicated frames (at random rates or one at a time),
//! unplugging (the pty is closed and a new one is published under the same path after a
//! while), and resets. What a reset keeps is a setting ([`Persistence`]), as it depends on the
//! firmware: by default the tower keeps its boot id and last sequence number in non-volatile
//! memory, so a new boot names the rolls the reset took away; it can keep nothing (the host
//! then learns only that an unknown number may be lost), or everything, history included
//! (nothing is lost). How many unacknowledged rolls it holds is a setting too
//! ([`SimConfig::history`], 32 like the firmware `PROTOCOL.md` suggests).
//!
//! [`proxy`] puts a protocol-blind fault injector on the serial line between a tower and the
//! host, paced to a real baud rate.
//!
//! It runs on its own threads (`tower-sim`, `tower-sim-rx`), so tests drive it in-process:
//!
//! ```no_run
//! use firmware_bridge::sim::{Sim, SimConfig, Command};
//!
//! let sim = Sim::spawn(SimConfig::default()).unwrap();
//! println!("tower at {}", sim.path().display());
//! sim.send(Command::Roll { sides: 6, value: 4 }).unwrap();
//! // Two dice of one throw: consecutive sequence numbers, one throw id.
//! sim.throw(&[(6, 3), (6, 5)]).unwrap();
//! ```

pub mod proxy;
pub mod script;

use std::collections::VecDeque;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use serialport::{SerialPort, TTYPort};

use crate::frame::{FrameDecoder, encode};
use crate::link::WireMode;
use crate::message::{
    BootId, DeviceId, DeviceMessage, DiceSet, FaultCode, FirmwareVersion, HostMessage,
};
use crate::text::{RollLine, TextThrow, format_roll_line};
use crate::tower::{Settled, Tower};

/// The most unacknowledged rolls a simulated tower can be set to hold
/// ([`SimConfig::history`]).
pub const MAX_SIM_HISTORY: usize = 4096;

/// The history firmware should hold, and the simulator's default (`PROTOCOL.md`, section 5).
pub const FIRMWARE_HISTORY: usize = 32;

/// What a simulated tower keeps across a reset, in non-volatile memory (`PROTOCOL.md`,
/// section 5, says what each gives the host).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Persistence {
    /// Nothing: a new boot that cannot say what the old one lost.
    Nothing,
    /// Its boot id and last sequence number: a new boot whose hello names them, so the host
    /// learns exactly which rolls were lost (the unacknowledged ones, held in RAM).
    #[default]
    Counters,
    /// Everything, the history of unacknowledged rolls included: the same boot carries on
    /// after the reset and nothing is lost.
    Everything,
}

/// What a printing tower (line mode) adds to its `ROLL` lines (`PROTOCOL.md`, section 9).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LineFormat {
    /// A `#<n>` line counter.
    pub counter: bool,
    /// A `*<hh>` CRC-8 check.
    pub check: bool,
}

/// A fault applied to the next frame the tower writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Injection {
    /// Random bytes (never a valid frame) written just before the frame.
    Garbage(usize),
    /// One bit of the frame inverted.
    BitFlip,
    /// Only the first part of the frame is written (no delimiter either), so it runs into
    /// the next frame.
    Truncate,
    /// The frame is written twice.
    Duplicate,
}

/// Random fault rates, each the probability per written frame (they are exclusive: at most
/// one fault per frame). All zero by default.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FaultPlan {
    /// Noise before the frame (1 to `garbage_max` random bytes).
    pub garbage: f64,
    /// Longest noise burst.
    pub garbage_max: usize,
    /// A flipped bit.
    pub bit_flip: f64,
    /// A truncated frame.
    pub truncate: f64,
    /// A duplicated frame.
    pub duplicate: f64,
    /// Probability that a frame from the host is ignored (as if corrupted on the way in).
    pub drop_host: f64,
}

/// What the simulated tower is told to do.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// A die settles with this face (the die index is the next die of these sides in the
    /// tower's set, or 0).
    Roll {
        /// The die's sides.
        sides: u8,
        /// The face.
        value: u8,
    },
    /// Dice thrown together settle, as `(sides, value)` pairs in the order read: they get
    /// consecutive sequence numbers and one throw id (the first die's sequence number). Each
    /// die index is the next die of its sides in the tower's set, or 0. In text mode a throw
    /// of one kind of die is one `ROLL 2d6 3 5` line; mixed dice are printed one line each
    /// (and are then separate throws for the host: a limit of line mode).
    Throw(Vec<(u8, u8)>),
    /// A random die of the tower's set settles on a random face.
    RollRandom,
    /// A random throw: one or two dice of the tower's set (two neighbours in the set, when it
    /// holds two or more), each on a random face.
    ThrowRandom,
    /// "Dice are falling" for this many dice.
    RollStarted(u8),
    /// A heartbeat now.
    Heartbeat,
    /// A fault for the next frame.
    Inject(Injection),
    /// Write this many random bytes now.
    Noise(usize),
    /// Write these bytes now, as they are.
    Raw(Vec<u8>),
    /// Unplug for this long: close the pty, publish a new one under the same path after.
    DropLink(Duration),
    /// Reboot, keeping what [`SimConfig::persistence`] says: with `Counters` (the default)
    /// or `Nothing`, a new boot nonce, sequence numbers restart and held rolls are lost; with
    /// `Everything`, the same boot goes on. Says hello.
    Reset,
    /// Replace the random fault rates.
    SetFaults(FaultPlan),
}

/// Settings of a simulated tower.
#[derive(Clone, Debug)]
pub struct SimConfig {
    /// Its id.
    pub device: DeviceId,
    /// Its firmware version.
    pub firmware: FirmwareVersion,
    /// The sides of its dice.
    pub dice: Vec<u8>,
    /// Heartbeat period (`None`: never).
    pub heartbeat: Option<Duration>,
    /// Framed protocol, or a printing tower.
    pub wire: WireMode,
    /// Random fault rates.
    pub faults: FaultPlan,
    /// Seed for boot nonces, random rolls and faults (`None`: from the OS).
    pub seed: Option<u64>,
    /// Where to publish the port (`None`: a `tty` symlink in a new temporary directory).
    pub link_path: Option<PathBuf>,
    /// Whether to report [`SimEvent`]s (see [`Sim::take_events`]).
    pub record_events: bool,
    /// How long a write may wait for a host that does not read before the bytes are
    /// dropped (a UART does not wait at all).
    pub write_timeout: Duration,
    /// How many unacknowledged rolls the tower holds (at most [`MAX_SIM_HISTORY`]); beyond
    /// it the oldest is dropped and reported (`Fault` 3).
    pub history: usize,
    /// What a reset keeps.
    pub persistence: Persistence,
    /// Line mode: counter and check suffixes.
    pub line_format: LineFormat,
}

impl Default for SimConfig {
    fn default() -> Self {
        SimConfig {
            device: DeviceId(0x7AB1_E51D_E000_0001),
            firmware: FirmwareVersion {
                major: 1,
                minor: 0,
                patch: 0,
            },
            dice: vec![6, 6],
            heartbeat: Some(Duration::from_secs(1)),
            wire: WireMode::Framed,
            faults: FaultPlan::default(),
            seed: None,
            link_path: None,
            record_events: false,
            write_timeout: Duration::from_millis(200),
            history: FIRMWARE_HISTORY,
            persistence: Persistence::Counters,
            line_format: LineFormat::default(),
        }
    }
}

/// Something the simulated tower did, reported when [`SimConfig::record_events`] is set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SimEvent {
    /// A die settled. `written_at` is when its frame was handed to the pty (`None`
    /// if the link was down).
    Rolled {
        /// The boot.
        boot: BootId,
        /// Its sequence number.
        seq: u32,
        /// Its throw id (the sequence number of the throw's first die).
        throw: u32,
        /// The die's sides.
        sides: u8,
        /// The face.
        value: u8,
        /// When it was written.
        written_at: Option<Instant>,
    },
    /// The pty was closed.
    LinkDown,
    /// A new pty was published.
    LinkUp {
        /// The pty's own path (`/dev/pts/N`).
        tty: PathBuf,
    },
    /// The tower rebooted.
    Reset {
        /// The new boot nonce.
        boot: BootId,
    },
}

/// Counters of injected faults.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Injected {
    /// Noise bursts (before frames, and `Noise` commands).
    pub garbage: u64,
    /// Bit flips.
    pub bit_flips: u64,
    /// Truncated frames.
    pub truncations: u64,
    /// Duplicated frames.
    pub duplicates: u64,
    /// Host frames ignored.
    pub host_dropped: u64,
}

/// A snapshot of the simulated tower.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SimStatus {
    /// The current boot nonce.
    pub boot: Option<BootId>,
    /// The newest roll's sequence number.
    pub last_seq: u32,
    /// The newest roll the host acknowledged (this boot).
    pub acked: u32,
    /// Rolls held unacknowledged.
    pub held: usize,
    /// Whether the pty is open.
    pub link_up: bool,
    /// The current pty's own path.
    pub tty: Option<PathBuf>,
    /// Frames written (not counting duplicates).
    pub frames_written: u64,
    /// Bytes written.
    pub bytes_written: u64,
    /// Writes that timed out (the host did not read).
    pub write_timeouts: u64,
    /// Valid frames received from the host.
    pub host_frames: u64,
    /// Corrupt frames received from the host.
    pub host_errors: u64,
    /// Rolls sent again on request.
    pub resent: u64,
    /// Pings answered.
    pub pings: u64,
    /// Faults injected.
    pub injected: Injected,
    /// Unplugs.
    pub link_drops: u64,
    /// Resets.
    pub resets: u64,
    /// Commands processed.
    pub commands: u64,
}

/// Why the simulator could not do something.
#[derive(Debug, thiserror::Error)]
pub enum SimError {
    /// The pty or the symlink could not be made.
    #[error("pty: {0}")]
    Io(#[from] io::Error),
    /// The pty pair could not be opened.
    #[error("pty: {0}")]
    Serial(#[from] serialport::Error),
    /// A setting is unusable (no dice, a die with fewer than 2 sides, more than 16 dice, a
    /// history longer than [`MAX_SIM_HISTORY`]).
    #[error("bad simulator setting: {0}")]
    Config(&'static str),
    /// The simulator's thread has stopped.
    #[error("the simulator has stopped")]
    Stopped,
}

enum Ctl {
    Cmd(Command),
    HostBytes { generation: u64, bytes: Vec<u8> },
    Sync(Sender<()>),
    Shutdown,
}

/// Sends commands to a simulated tower from anywhere (a proxy's reset line, another thread).
#[derive(Clone, Debug)]
pub struct SimCommander {
    tx: Sender<Ctl>,
}

impl SimCommander {
    /// Tells the tower to do something.
    ///
    /// # Errors
    /// [`SimError::Stopped`] if the tower's thread has ended.
    pub fn send(&self, cmd: Command) -> Result<(), SimError> {
        self.tx.send(Ctl::Cmd(cmd)).map_err(|_| SimError::Stopped)
    }
}

/// A running simulated tower. Dropping it stops the tower and removes its port.
#[derive(Debug)]
pub struct Sim {
    path: PathBuf,
    tx: Sender<Ctl>,
    status: Arc<Mutex<SimStatus>>,
    events: Option<Receiver<SimEvent>>,
    thread: Option<JoinHandle<()>>,
    _dir: Option<tempfile::TempDir>,
}

fn lock(status: &Mutex<SimStatus>) -> MutexGuard<'_, SimStatus> {
    status
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Sim {
    /// Opens the pty, publishes it and starts the tower.
    ///
    /// # Errors
    /// [`SimError`] if the pty cannot be made or the settings are unusable.
    pub fn spawn(config: SimConfig) -> Result<Sim, SimError> {
        let dice = DiceSet::new(&config.dice).map_err(|_| SimError::Config("dice"))?;
        if dice.is_empty() {
            return Err(SimError::Config("the tower needs at least one die"));
        }
        if config.history > MAX_SIM_HISTORY {
            return Err(SimError::Config(
                "history longer than MAX_SIM_HISTORY (4096)",
            ));
        }
        let (dir, path) = match &config.link_path {
            Some(p) => (None, p.clone()),
            None => {
                let dir = tempfile::Builder::new().prefix("tower-sim-").tempdir()?;
                let path = dir.path().join("tty");
                (Some(dir), path)
            }
        };
        let mut rng = match config.seed {
            Some(seed) => StdRng::seed_from_u64(seed),
            None => rand::make_rng(),
        };
        let boot = fresh_boot(&mut rng);
        let tower = Box::new(
            Tower::new(config.device, boot, config.firmware, dice)
                .map_err(|_| SimError::Config("device id 0 is reserved"))?
                .with_history_limit(config.history),
        );
        let (tx, rx) = mpsc::channel();
        let status = Arc::new(Mutex::new(SimStatus::default()));
        let (events_tx, events) = if config.record_events {
            let (t, r) = mpsc::channel();
            (Some(t), Some(r))
        } else {
            (None, None)
        };
        let now = Instant::now();
        let mut device = Device {
            tower,
            pty: None,
            generation: 0,
            down_until: None,
            inbox: tx.clone(),
            path: path.clone(),
            rng,
            plan: config.faults,
            queued: VecDeque::new(),
            decoder: FrameDecoder::new(),
            started: now,
            booted: now,
            line_counter: 0,
            next_heartbeat: config.heartbeat.map(|h| now + h),
            resync: true,
            next_die: 0,
            status: status.clone(),
            stats: SimStatus::default(),
            events: events_tx,
            config,
        };
        device.plug()?;
        device.publish();
        let thread = std::thread::Builder::new()
            .name("tower-sim".to_owned())
            .spawn(move || device.run(rx))?;
        Ok(Sim {
            path,
            tx,
            status,
            events,
            thread: Some(thread),
            _dir: dir,
        })
    }

    /// The port to open: a symlink to the current pty, stable across unplugs.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Tells the tower to do something.
    ///
    /// # Errors
    /// [`SimError::Stopped`] if the tower's thread has ended.
    pub fn send(&self, cmd: Command) -> Result<(), SimError> {
        self.tx.send(Ctl::Cmd(cmd)).map_err(|_| SimError::Stopped)
    }

    /// A sender of commands that can be moved to another thread.
    pub fn commander(&self) -> SimCommander {
        SimCommander {
            tx: self.tx.clone(),
        }
    }

    /// A die settles with this face.
    ///
    /// # Errors
    /// [`SimError::Stopped`] if the tower's thread has ended.
    pub fn roll(&self, sides: u8, value: u8) -> Result<(), SimError> {
        self.send(Command::Roll { sides, value })
    }

    /// Dice thrown together settle with these `(sides, value)` faces (see [`Command::Throw`]).
    ///
    /// # Errors
    /// [`SimError::Stopped`] if the tower's thread has ended.
    pub fn throw(&self, dice: &[(u8, u8)]) -> Result<(), SimError> {
        self.send(Command::Throw(dice.to_vec()))
    }

    /// Waits until every command sent before has been carried out.
    ///
    /// # Errors
    /// [`SimError::Stopped`] if the tower's thread has ended.
    pub fn sync(&self) -> Result<(), SimError> {
        let (tx, rx) = mpsc::channel();
        self.tx.send(Ctl::Sync(tx)).map_err(|_| SimError::Stopped)?;
        rx.recv().map_err(|_| SimError::Stopped)
    }

    /// The tower's state now.
    pub fn status(&self) -> SimStatus {
        lock(&self.status).clone()
    }

    /// Polls the status until `done` holds or `timeout` passes; whether it held.
    pub fn wait_for(&self, timeout: Duration, done: impl Fn(&SimStatus) -> bool) -> bool {
        let end = Instant::now() + timeout;
        loop {
            if done(&self.status()) {
                return true;
            }
            if Instant::now() >= end {
                return false;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    /// The event receiver, once (needs [`SimConfig::record_events`]).
    pub fn take_events(&mut self) -> Option<Receiver<SimEvent>> {
        self.events.take()
    }

    /// Stops the tower, closes the pty and removes the published port.
    pub fn shutdown(mut self) {
        self.stop();
    }

    fn stop(&mut self) {
        let _ = self.tx.send(Ctl::Shutdown);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for Sim {
    fn drop(&mut self) {
        self.stop();
    }
}

fn fresh_boot(rng: &mut StdRng) -> BootId {
    loop {
        let b: u32 = rng.random();
        if b != 0 {
            return BootId(b);
        }
    }
}

/// One open pty: the master end we write to, a clone a reader thread reads from, and our own
/// handle on the slave end (kept open so the pty lives while the host reconnects).
struct Pty {
    master: TTYPort,
    _slave: TTYPort,
    stop: Arc<AtomicBool>,
    reader: Option<JoinHandle<()>>,
}

impl Drop for Pty {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(r) = self.reader.take() {
            let _ = r.join();
        }
    }
}

struct Device {
    tower: Box<Tower<MAX_SIM_HISTORY>>,
    pty: Option<Pty>,
    generation: u64,
    down_until: Option<Instant>,
    inbox: Sender<Ctl>,
    path: PathBuf,
    rng: StdRng,
    plan: FaultPlan,
    queued: VecDeque<Injection>,
    decoder: FrameDecoder,
    /// The tower's own millisecond clock starts here (it survives resets that keep the
    /// history, so a kept roll's age stays right).
    started: Instant,
    booted: Instant,
    /// Line mode: the `#<n>` of the last line printed this boot.
    line_counter: u32,
    next_heartbeat: Option<Instant>,
    resync: bool,
    next_die: usize,
    status: Arc<Mutex<SimStatus>>,
    stats: SimStatus,
    events: Option<Sender<SimEvent>>,
    config: SimConfig,
}

impl Device {
    fn run(mut self, rx: Receiver<Ctl>) {
        loop {
            let now = Instant::now();
            let deadline = [self.next_heartbeat, self.down_until]
                .into_iter()
                .flatten()
                .min();
            let wait = deadline.map_or(Duration::from_secs(3600), |d| {
                d.saturating_duration_since(now)
            });
            match rx.recv_timeout(wait) {
                Ok(Ctl::Cmd(cmd)) => {
                    self.stats.commands += 1;
                    self.command(cmd);
                }
                Ok(Ctl::HostBytes { generation, bytes }) => {
                    if generation == self.generation && self.pty.is_some() {
                        self.host_bytes(&bytes);
                    }
                }
                Ok(Ctl::Sync(done)) => {
                    self.publish();
                    let _ = done.send(());
                }
                Ok(Ctl::Shutdown) | Err(RecvTimeoutError::Disconnected) => break,
                Err(RecvTimeoutError::Timeout) => {}
            }
            let now = Instant::now();
            if self.down_until.is_some_and(|t| now >= t) {
                self.down_until = None;
                if self.plug().is_err() {
                    // Try again shortly, as a re-enumerating USB device would.
                    self.down_until = Some(now + Duration::from_millis(50));
                }
            }
            if let (Some(t), Some(period)) = (self.next_heartbeat, self.config.heartbeat)
                && now >= t
            {
                self.next_heartbeat = Some(now + period);
                if self.config.wire == WireMode::Framed {
                    let hb = self.tower.heartbeat(self.uptime_ms());
                    self.write_message(hb);
                }
            }
            self.publish();
        }
        self.unplug();
    }

    fn uptime_ms(&self) -> u32 {
        u32::try_from(self.booted.elapsed().as_millis() % (1u128 << 32)).unwrap_or(0)
    }

    /// The clock the tower stamps rolls with (`millis()`, wrapping).
    fn clock_ms(&self) -> u32 {
        u32::try_from(self.started.elapsed().as_millis() % (1u128 << 32)).unwrap_or(0)
    }

    fn event(&self, e: SimEvent) {
        if let Some(tx) = &self.events {
            let _ = tx.send(e);
        }
    }

    fn publish(&mut self) {
        self.stats.boot = Some(self.tower.boot());
        self.stats.last_seq = self.tower.last_seq();
        self.stats.held = self.tower.held();
        self.stats.link_up = self.pty.is_some();
        lock(&self.status).clone_from(&self.stats);
    }

    /// Opens a new pty and points the published path at it.
    fn plug(&mut self) -> Result<(), SimError> {
        let (mut master, slave) = TTYPort::pair()?;
        let tty = PathBuf::from(slave.name().ok_or(SimError::Config("pty has no name"))?);
        master.set_timeout(self.config.write_timeout)?;
        let mut reader = master.try_clone_native()?;
        reader.set_timeout(Duration::from_millis(10))?;
        // Publish atomically: a symlink beside the final name, renamed over it.
        let tmp = self.path.with_extension("new");
        let _ = std::fs::remove_file(&tmp);
        std::os::unix::fs::symlink(&tty, &tmp)?;
        std::fs::rename(&tmp, &self.path)?;
        self.generation += 1;
        let generation = self.generation;
        let stop = Arc::new(AtomicBool::new(false));
        let stop_reader = stop.clone();
        let inbox = self.inbox.clone();
        let reader = std::thread::Builder::new()
            .name("tower-sim-rx".to_owned())
            .spawn(move || {
                let mut buf = [0u8; 1024];
                while !stop_reader.load(Ordering::Relaxed) {
                    match reader.read(&mut buf) {
                        Ok(0) => std::thread::sleep(Duration::from_millis(5)),
                        Ok(n) => {
                            let bytes = buf.get(..n).unwrap_or(&[]).to_vec();
                            if inbox.send(Ctl::HostBytes { generation, bytes }).is_err() {
                                break;
                            }
                        }
                        Err(e) if e.kind() == io::ErrorKind::TimedOut => {}
                        Err(_) => std::thread::sleep(Duration::from_millis(5)),
                    }
                }
            })?;
        self.pty = Some(Pty {
            master,
            _slave: slave,
            stop,
            reader: Some(reader),
        });
        self.resync = true;
        self.decoder.reset();
        self.stats.tty = Some(tty.clone());
        self.event(SimEvent::LinkUp { tty });
        Ok(())
    }

    fn unplug(&mut self) {
        if self.pty.take().is_some() {
            let _ = std::fs::remove_file(&self.path);
            self.event(SimEvent::LinkDown);
        }
    }

    fn write_raw(&mut self, bytes: &[u8]) {
        let Some(pty) = &mut self.pty else { return };
        let mut rest = bytes;
        while !rest.is_empty() {
            match pty.master.write(rest) {
                Ok(0) => break,
                Ok(n) => {
                    self.stats.bytes_written += n as u64;
                    rest = rest.get(n..).unwrap_or(&[]);
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(_) => {
                    self.stats.write_timeouts += 1;
                    break;
                }
            }
        }
    }

    fn next_injection(&mut self) -> Option<Injection> {
        if let Some(i) = self.queued.pop_front() {
            return Some(i);
        }
        let p = self.plan;
        let r: f64 = self.rng.random();
        let mut edge = p.garbage;
        if r < edge {
            let n = self.rng.random_range(1..=p.garbage_max.max(1));
            return Some(Injection::Garbage(n));
        }
        edge += p.bit_flip;
        if r < edge {
            return Some(Injection::BitFlip);
        }
        edge += p.truncate;
        if r < edge {
            return Some(Injection::Truncate);
        }
        edge += p.duplicate;
        if r < edge {
            return Some(Injection::Duplicate);
        }
        None
    }

    fn noise(&mut self, n: usize) -> Vec<u8> {
        let mut bytes = vec![0u8; n];
        self.rng.fill(&mut bytes[..]);
        bytes
    }

    /// Writes one frame (or line), applying the next fault; returns when it was written.
    fn write_frame(&mut self, frame: &[u8]) -> Option<Instant> {
        self.pty.as_ref()?;
        let mut out = Vec::with_capacity(frame.len() * 2 + 1);
        if self.resync && self.config.wire == WireMode::Framed {
            out.push(0);
        }
        self.resync = false;
        match self.next_injection() {
            None => out.extend_from_slice(frame),
            Some(Injection::Garbage(n)) => {
                self.stats.injected.garbage += 1;
                out.extend(self.noise(n));
                out.extend_from_slice(frame);
            }
            Some(Injection::BitFlip) => {
                self.stats.injected.bit_flips += 1;
                let mut damaged = frame.to_vec();
                let i = self.rng.random_range(0..damaged.len().max(1));
                let bit = self.rng.random_range(0..8u32);
                if let Some(b) = damaged.get_mut(i) {
                    *b ^= 1 << bit;
                }
                out.extend(damaged);
            }
            Some(Injection::Truncate) => {
                self.stats.injected.truncations += 1;
                let keep = self.rng.random_range(1..frame.len().max(2));
                out.extend_from_slice(frame.get(..keep).unwrap_or(frame));
            }
            Some(Injection::Duplicate) => {
                self.stats.injected.duplicates += 1;
                out.extend_from_slice(frame);
                out.extend_from_slice(frame);
            }
        }
        let at = Instant::now();
        self.write_raw(&out);
        self.stats.frames_written += 1;
        Some(at)
    }

    fn write_message(&mut self, msg: DeviceMessage) -> Option<Instant> {
        match self.config.wire {
            WireMode::Framed => {
                let frame = encode(&msg).ok()?;
                self.write_frame(frame.as_bytes())
            }
            WireMode::Text => {
                let DeviceMessage::RollResult(r) = msg else {
                    return None;
                };
                let throw = TextThrow::new(r.sides, &[r.value])?;
                self.write_line(&throw)
            }
        }
    }

    fn write_line(&mut self, throw: &TextThrow) -> Option<Instant> {
        self.line_counter = self.line_counter.wrapping_add(1).max(1);
        let format = self.config.line_format;
        let line = RollLine {
            throw: *throw,
            counter: format.counter.then_some(self.line_counter),
            checked: format.check,
        };
        let mut out = [0u8; 80];
        let n = format_roll_line(&line, &mut out)?;
        self.write_frame(out.get(..n)?)
    }

    fn die_for(&mut self, sides: u8) -> u8 {
        let dice = self.config.dice.clone();
        let n = dice.len().max(1);
        for k in 0..n {
            let i = (self.next_die + k) % n;
            if dice.get(i) == Some(&sides) {
                self.next_die = i + 1;
                return u8::try_from(i).unwrap_or(0);
            }
        }
        0
    }

    /// A throw of these dice (index, sides, value): the tower numbers them, the frames (or
    /// lines) are written, and each die is reported as an event.
    fn throw(&mut self, dice: &[Settled]) {
        let mut out = Vec::new();
        let now_ms = self.clock_ms();
        if self
            .tower
            .throw(dice, now_ms, &mut |m| out.push(m))
            .is_err()
        {
            return;
        }
        let mut rolled = Vec::new();
        match self.config.wire {
            WireMode::Framed => {
                for m in out {
                    let written_at = self.write_message(m);
                    if let DeviceMessage::RollResult(r) = m {
                        rolled.push((r, written_at));
                    }
                }
            }
            WireMode::Text => {
                let results: Vec<_> = out
                    .into_iter()
                    .filter_map(|m| match m {
                        DeviceMessage::RollResult(r) => Some(r),
                        _ => None,
                    })
                    .collect();
                let values: Vec<u8> = results.iter().map(|r| r.value).collect();
                let one_line = results
                    .first()
                    .filter(|first| results.iter().all(|r| r.sides == first.sides))
                    .and_then(|first| TextThrow::new(first.sides, &values));
                if let Some(line) = one_line {
                    let written_at = self.write_line(&line);
                    rolled.extend(results.into_iter().map(|r| (r, written_at)));
                } else {
                    for r in results {
                        let written_at = self.write_message(DeviceMessage::RollResult(r));
                        rolled.push((r, written_at));
                    }
                }
            }
        }
        for (r, written_at) in rolled {
            self.event(SimEvent::Rolled {
                boot: r.boot,
                seq: r.seq,
                throw: r.throw,
                sides: r.sides,
                value: r.value,
                written_at,
            });
        }
    }

    /// Dice given by their sides: each is the next die of those sides in the set.
    fn throw_sides(&mut self, dice: &[(u8, u8)]) {
        let settled: Vec<Settled> = dice
            .iter()
            .map(|&(sides, value)| Settled {
                die: self.die_for(sides),
                sides,
                value,
            })
            .collect();
        self.throw(&settled);
    }

    /// `count` neighbouring dice of the set from a random one, on random faces.
    fn throw_random(&mut self, count: usize) {
        let n = self.config.dice.len().max(1);
        let first = self.rng.random_range(0..n);
        let mut settled = Vec::new();
        for k in 0..count.clamp(1, n) {
            let i = (first + k) % n;
            let sides = self.config.dice.get(i).copied().unwrap_or(6);
            let value = self.rng.random_range(1..=sides);
            settled.push(Settled {
                die: u8::try_from(i).unwrap_or(0),
                sides,
                value,
            });
        }
        self.next_die = (first + settled.len()) % n;
        self.throw(&settled);
    }

    fn command(&mut self, cmd: Command) {
        match cmd {
            Command::Roll { sides, value } => self.throw_sides(&[(sides, value)]),
            Command::Throw(dice) => self.throw_sides(&dice),
            Command::RollRandom => self.throw_random(1),
            Command::ThrowRandom => {
                let count = self.rng.random_range(1..=2);
                self.throw_random(count);
            }
            Command::RollStarted(n) => {
                if self.config.wire == WireMode::Framed {
                    let m = self.tower.roll_started(n);
                    self.write_message(m);
                }
            }
            Command::Heartbeat => {
                if self.config.wire == WireMode::Framed {
                    let hb = self.tower.heartbeat(self.uptime_ms());
                    self.write_message(hb);
                }
            }
            Command::Inject(i) => self.queued.push_back(i),
            Command::Noise(n) => {
                self.stats.injected.garbage += 1;
                // In chunks, so a big burst is paced by the reader instead of timing out.
                let mut left = n;
                while left > 0 && self.pty.is_some() {
                    let chunk = self.noise(left.min(4096));
                    left -= chunk.len();
                    self.write_patiently(&chunk);
                }
            }
            Command::Raw(bytes) => self.write_raw(&bytes),
            Command::DropLink(d) => {
                self.stats.link_drops += 1;
                self.unplug();
                self.down_until = Some(Instant::now() + d);
            }
            Command::Reset => {
                self.stats.resets += 1;
                let (old_boot, old_last) = (self.tower.boot(), self.tower.last_seq());
                let boot = if self.config.persistence == Persistence::Everything {
                    // The history survived in non-volatile memory: the same boot goes on.
                    self.tower.reset_receiver();
                    old_boot
                } else {
                    let mut boot = fresh_boot(&mut self.rng);
                    while boot == old_boot {
                        boot = fresh_boot(&mut self.rng);
                    }
                    let dice = DiceSet::new(&self.config.dice).unwrap_or_default();
                    let tower = Tower::new(self.config.device, boot, self.config.firmware, dice)
                        .map(|t| t.with_history_limit(self.config.history));
                    let tower = match (self.config.persistence, tower) {
                        (Persistence::Counters, Ok(t)) => t.following(old_boot, old_last),
                        (_, t) => t,
                    };
                    if let Ok(t) = tower {
                        *self.tower = t;
                    }
                    self.stats.acked = 0;
                    self.started = Instant::now();
                    boot
                };
                self.booted = Instant::now();
                self.line_counter = 0;
                self.resync = true;
                self.decoder.reset();
                self.event(SimEvent::Reset { boot });
                if self.config.wire == WireMode::Framed {
                    let hello = self.tower.hello();
                    self.write_message(hello);
                }
            }
            Command::SetFaults(plan) => self.plan = plan,
        }
    }

    /// Writes all of `bytes`, waiting for the host to read (for noise floods).
    fn write_patiently(&mut self, bytes: &[u8]) {
        let Some(pty) = &mut self.pty else { return };
        let end = Instant::now() + Duration::from_secs(10);
        let mut rest = bytes;
        while !rest.is_empty() && Instant::now() < end {
            match pty.master.write(rest) {
                Ok(n) => {
                    self.stats.bytes_written += n as u64;
                    rest = rest.get(n..).unwrap_or(&[]);
                }
                Err(_) => std::thread::sleep(Duration::from_millis(1)),
            }
        }
    }

    fn host_bytes(&mut self, bytes: &[u8]) {
        if self.config.wire == WireMode::Text {
            return; // a printing tower does not listen
        }
        for &b in bytes {
            match self.decoder.push::<HostMessage>(b) {
                Some(Ok(msg)) => {
                    self.stats.host_frames += 1;
                    let drop_p = self.plan.drop_host;
                    if drop_p > 0.0 && self.rng.random::<f64>() < drop_p {
                        self.stats.injected.host_dropped += 1;
                        continue;
                    }
                    self.host_message(msg);
                }
                Some(Err(_)) => {
                    self.stats.host_errors += 1;
                    let f = self.tower.fault(
                        FaultCode::HostFrameCorrupt,
                        u32::try_from(self.stats.host_errors).unwrap_or(u32::MAX),
                    );
                    self.write_message(f);
                }
                None => {}
            }
        }
    }

    fn host_message(&mut self, msg: HostMessage) {
        match msg {
            HostMessage::Ping => self.stats.pings += 1,
            HostMessage::Ack(a) if a.boot == self.tower.boot() => {
                self.stats.acked = self.stats.acked.max(a.seq.min(self.tower.last_seq()));
            }
            _ => {}
        }
        let mut replies = Vec::new();
        let now_ms = self.clock_ms();
        self.tower.handle(msg, now_ms, &mut |m| replies.push(m));
        for m in replies {
            if matches!(m, DeviceMessage::RollResult(_)) {
                self.stats.resent += 1;
            }
            self.write_message(m);
        }
    }
}
