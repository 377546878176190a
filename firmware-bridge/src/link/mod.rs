//! The host link: a tokio task that talks to a tower over a serial port.
//!
//! It opens the port named in [`LinkConfig::port`] (or finds the tower by handshake among the
//! ports present, see [`Discovery`]), pings it, and from then on:
//!
//! - delivers every roll exactly once and in order as a [`Roll`] on a channel
//!   ([`Link::try_recv`] for a UI that drains once per frame, [`Link::recv`] in async code),
//!   each with the time it was thrown (the tower says how old a roll it sends again is) and
//!   whether the link was down then;
//! - acknowledges delivered rolls, asks for lost ones ("resend since N", in bounded bursts),
//!   drops duplicates, notices a tower reset by its new boot nonce (see `session` for the
//!   rules);
//! - reports every roll it knows was thrown but will never arrive as a [`LossReport`] on a
//!   second channel ([`Link::try_recv_loss`]): a tower reset, an overflowing tower history,
//!   a damaged or missing line of a printing tower. A loss is never silent;
//! - when the port goes away (unplugged, error, silence), reopens it with a capped
//!   exponential backoff and resumes where it stopped, so no roll is lost or counted twice;
//! - publishes [`LinkHealth`] (state, device, last heartbeat, counters) on a
//!   [`tokio::sync::watch`] channel for the UI.
//!
//! ```no_run
//! use firmware_bridge::link::{Link, LinkConfig};
//!
//! # fn main() -> Result<(), firmware_bridge::link::LinkError> {
//! // On its own thread ("tower-link"), for a non-async app:
//! let mut link = Link::start(LinkConfig::discover())?;
//! loop {
//!     while let Some(roll) = link.try_recv() {
//!         println!("d{} rolled {} (seq {})", roll.sides, roll.value, roll.seq);
//!     }
//!     println!("{:?}", link.health().state);
//!     std::thread::sleep(std::time::Duration::from_millis(16));
//! }
//! # }
//! ```

mod discover;
mod lines;
mod session;
pub mod simulate;

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::sync::{mpsc, watch};
use tokio_serial::{SerialPort, SerialStream};

pub use discover::Discovery;

use crate::frame::{DecodeError, FrameDecoder, encode};
use crate::message::{BootId, DeviceId, DeviceMessage, Fault, FirmwareVersion, HostMessage};
use crate::text::{LineDecoder, LineError};
use lines::LineSession;
use session::{Outbox, Session, SessionConfig};

/// Which tower a roll came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TowerRef {
    /// A tower speaking the framed protocol: its id and the boot the roll belongs to.
    Framed {
        /// The tower's id.
        id: DeviceId,
        /// The boot nonce of the power-up the roll happened in.
        boot: BootId,
    },
    /// A printing tower in line mode: no identity (see [`crate::text`] for what that costs).
    Text,
}

/// One die result, delivered once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Roll {
    /// The tower.
    pub device: TowerRef,
    /// The tower's sequence number (per boot); for a text tower the link's own count of
    /// dice received, from 1.
    pub seq: u32,
    /// The throw this die belongs to: the `seq` of the first die of its throw (`== seq` for a
    /// die thrown alone). Dice of one throw arrive together, with consecutive `seq`s. For a
    /// text tower, each `ROLL` line is one throw.
    pub throw: u32,
    /// The die's index in the tower's dice set (0 for a text tower).
    pub die: u8,
    /// The die's sides.
    pub sides: u8,
    /// The face that came up, `1..=sides`.
    pub value: u8,
    /// When the link decoded it.
    pub received_at: Instant,
    /// When it was thrown: `received_at` less the age the tower gave it (a roll sent again
    /// after an unplug or a damaged frame is older than its frame). A printing tower says
    /// nothing: its lines are taken as thrown when they arrive.
    pub thrown_at: Instant,
    /// Thrown while the link had no open port to the tower (unplugged, or before the link
    /// started): it could not arrive at once.
    pub offline: bool,
}

impl Roll {
    /// How long after its throw the link delivered it.
    pub fn age(&self) -> Duration {
        self.received_at.saturating_duration_since(self.thrown_at)
    }
}

/// Where a tower's rolls were delivered up to, to resume after an app restart without
/// counting a roll twice (seed [`LinkConfig::resume`] from the match log).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ResumePoint {
    /// The tower.
    pub device: DeviceId,
    /// The boot of the newest delivered roll.
    pub boot: BootId,
    /// The newest delivered roll's sequence number.
    pub seq: u32,
}

/// What to do with rolls a tower already holds when the link first meets it (not after a
/// reconnect or a reset, where nothing is skipped).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum StartFrom {
    /// Skip them: only dice thrown from now on count (the table follows the game now).
    #[default]
    Now,
    /// Deliver them too.
    Held,
}

/// Which port to use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PortChoice {
    /// This port, and only it (reopened by the same path after an unplug).
    Path(PathBuf),
    /// The first port whose device answers a ping with a hello.
    Discover(Discovery),
}

/// How the tower talks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum WireMode {
    /// The framed binary protocol (`PROTOCOL.md`).
    #[default]
    Framed,
    /// `ROLL d6 4` lines, with the weaker guarantees listed in [`crate::text`]. Needs
    /// [`PortChoice::Path`].
    Text,
}

/// A callback run on the link's task whenever rolls arrive or what a screen shows of the
/// health changes ([`LinkHealth::looks_different_from`]), e.g.
/// egui's `Context::request_repaint`. Keep it short and non-blocking.
#[derive(Clone)]
pub struct Notify(pub Arc<dyn Fn() + Send + Sync>);

impl fmt::Debug for Notify {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Notify(..)")
    }
}

/// Everything the link needs to know.
#[derive(Clone, Debug)]
pub struct LinkConfig {
    /// Which port.
    pub port: PortChoice,
    /// Framed protocol or text lines.
    pub wire: WireMode,
    /// Baud rate for UART bridges (USB CDC ignores it).
    pub baud_rate: u32,
    /// First wait before reopening a lost port; doubles on each failure...
    pub backoff_initial: Duration,
    /// ...up to this.
    pub backoff_max: Duration,
    /// How long to wait for a hello after a ping before pinging again.
    pub ping_retry: Duration,
    /// Pings without a hello before the port is given up and reopened (or, when
    /// discovering, the next candidate tried).
    pub handshake_pings: u32,
    /// How long to wait for the rolls asked for with "resend since" before asking again.
    pub resend_retry: Duration,
    /// No valid frame for this long: ping; for twice this long: reopen the port.
    /// Towers send a heartbeat about once a second.
    pub silence_timeout: Duration,
    /// Out-of-order rolls kept while waiting for a resend; when full, the lowest sequence
    /// numbers are kept (the tower still holds the others and sends them again).
    pub reorder_window: usize,
    /// Rolls held by a tower the link has never met.
    pub start: StartFrom,
    /// Where delivery stopped last time, per tower.
    pub resume: Vec<ResumePoint>,
    /// Called when rolls arrive or the health changes.
    pub notify: Option<Notify>,
}

impl LinkConfig {
    /// The tower on this port, speaking the framed protocol, with default timings.
    pub fn path(path: impl Into<PathBuf>) -> LinkConfig {
        LinkConfig::with_port(PortChoice::Path(path.into()))
    }

    /// Find the tower among the ports present ([`Discovery::default`]).
    pub fn discover() -> LinkConfig {
        LinkConfig::with_port(PortChoice::Discover(Discovery::default()))
    }

    /// Default timings for the given port choice.
    pub fn with_port(port: PortChoice) -> LinkConfig {
        LinkConfig {
            port,
            wire: WireMode::Framed,
            baud_rate: 115_200,
            backoff_initial: Duration::from_millis(50),
            backoff_max: Duration::from_secs(1),
            ping_retry: Duration::from_millis(250),
            handshake_pings: 4,
            resend_retry: Duration::from_millis(200),
            silence_timeout: Duration::from_secs(3),
            reorder_window: 256,
            start: StartFrom::Now,
            resume: Vec::new(),
            notify: None,
        }
    }
}

/// Why the link could not start, or why it last lost its port (in
/// [`LinkHealth::last_error`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LinkError {
    /// The port could not be opened (absent, busy, no permission).
    #[error("cannot open {}: {reason}", path.display())]
    Open {
        /// The port.
        path: PathBuf,
        /// The operating system's reason.
        reason: String,
    },
    /// No candidate port answered a ping with a hello.
    #[error("no tower answered among {tried} candidate port(s)")]
    NotFound {
        /// How many ports were tried.
        tried: usize,
    },
    /// Reading or writing the port failed (typically: unplugged).
    #[error("port I/O failed: {0}")]
    Io(String),
    /// The port reported end of file (the device went away).
    #[error("port closed")]
    Closed,
    /// The device did not answer pings with a hello.
    #[error("no hello after {pings} ping(s)")]
    NoHandshake {
        /// Pings sent.
        pings: u32,
    },
    /// The tower sent nothing valid for this long.
    #[error("tower silent for {0:?}")]
    Silent(Duration),
    /// [`Link::spawn`] was called outside a tokio runtime.
    #[error("no tokio runtime to run the link on")]
    NoRuntime,
    /// The link's own thread or runtime could not be created.
    #[error("cannot start the link thread: {0}")]
    Thread(String),
    /// Text mode needs a port path: a printing tower cannot answer a discovery ping.
    #[error("text mode needs a port path, it cannot discover a tower")]
    TextNeedsPath,
}

/// Where the link is.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum LinkState {
    /// Not started yet.
    #[default]
    Starting,
    /// Opening a port or probing candidates.
    Opening,
    /// The port is open; waiting for the tower's hello.
    Handshaking,
    /// Talking to a tower.
    Connected,
    /// The port was lost or not found; trying again after this wait.
    Waiting(Duration),
    /// Stopped by [`Link::stop`].
    Stopped,
}

/// The tower, as its last hello described it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceInfo {
    /// Its id.
    pub id: DeviceId,
    /// Its current boot nonce.
    pub boot: BootId,
    /// The newest protocol version it speaks.
    pub protocol: u8,
    /// Its firmware version.
    pub firmware: FirmwareVersion,
    /// The sides of the dice it holds.
    pub dice: Vec<u8>,
}

/// A fault the tower reported, and when it arrived.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FaultReport {
    /// The fault.
    pub fault: Fault,
    /// When it arrived.
    pub at: Instant,
}

/// Which rolls were lost.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Lost {
    /// The rolls `first..=last` of the tower's boot (for a printing tower with line
    /// counters: its lines `#first..=#last`, each a throw).
    Seqs {
        /// First lost sequence number (or line counter).
        first: u32,
        /// Last lost sequence number (or line counter).
        last: u32,
    },
    /// Some rolls after `after` (the last one known), how many the tower cannot say: a reset
    /// of a tower that keeps nothing across it, or a damaged line of a printing tower without
    /// counters (one throw).
    Unknown {
        /// The last roll delivered or known before the loss.
        after: u32,
    },
}

impl Lost {
    /// How many rolls (lines) were lost, when that is known.
    pub fn count(&self) -> Option<u64> {
        match self {
            Lost::Seqs { first, last } => Some(u64::from(last.saturating_sub(*first)) + 1),
            Lost::Unknown { .. } => None,
        }
    }
}

/// Why rolls were lost.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LossCause {
    /// The tower's history was full and it dropped unacknowledged rolls (it held them while
    /// the host could not take them, e.g. a long unplug).
    HistoryOverflow,
    /// The host asked for rolls the tower no longer held.
    ResendUnavailable,
    /// The tower restarted before the host had them.
    Reset,
    /// A printing tower's line counter jumped: these lines never arrived.
    LineGap,
    /// A printing tower's line was refused for this reason (damaged, or not a roll of the
    /// die it names).
    Line(LineError),
    /// A tower that checks its lines sent one without its check.
    UncheckedLine,
}

/// Rolls that were thrown but will never be delivered: the players should throw again. Every
/// loss the link can know of is reported once, on [`Link::try_recv_loss`], and counted in
/// [`LinkHealth`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LossReport {
    /// The tower, with the boot the lost rolls belong to.
    pub tower: TowerRef,
    /// Which rolls.
    pub lost: Lost,
    /// Why.
    pub cause: LossCause,
    /// When the loss became known.
    pub at: Instant,
}

/// "Dice are falling", and when.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RollStartedReport {
    /// Dice seen falling (0 if the tower cannot tell).
    pub dice: u8,
    /// When the message arrived.
    pub at: Instant,
}

/// Frames and lines refused, by reason.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ErrorCounts {
    /// Frames longer than the maximum (usually noise).
    pub too_long: u64,
    /// Broken COBS.
    pub cobs: u64,
    /// Frames too short to hold a header and a CRC.
    pub too_short: u64,
    /// CRC mismatches (damaged frames).
    pub crc: u64,
    /// Intact frames of an unsupported protocol version.
    pub version: u64,
    /// Intact frames of the wrong direction (echo).
    pub direction: u64,
    /// Intact frames whose message did not decode.
    pub payload: u64,
    /// Intact messages breaking a field rule.
    pub invalid: u64,
    /// Rolls from a boot the link has no hello for (answered with a ping).
    pub stray_rolls: u64,
    /// Refused `ROLL` lines (text mode): malformed, off the die, failed check, damaged.
    pub bad_lines: u64,
    /// Of those, lines whose check did not match (text mode).
    pub line_checks: u64,
    /// Of those, lines without a check from a tower that checks its lines (text mode).
    pub unchecked_lines: u64,
    /// Port failures (open, read, write, silence).
    pub io: u64,
}

impl ErrorCounts {
    fn count(&mut self, e: DecodeError) {
        let slot = match e {
            DecodeError::TooLong => &mut self.too_long,
            DecodeError::Cobs => &mut self.cobs,
            DecodeError::TooShort { .. } => &mut self.too_short,
            DecodeError::Crc { .. } => &mut self.crc,
            DecodeError::Version(_) => &mut self.version,
            DecodeError::Direction(_) => &mut self.direction,
            DecodeError::Payload(_) => &mut self.payload,
            DecodeError::Invalid(_) => &mut self.invalid,
        };
        *slot += 1;
    }

    /// All refused frames and lines (not counting port failures or strays).
    pub fn frames(&self) -> u64 {
        self.too_long
            + self.cobs
            + self.too_short
            + self.crc
            + self.version
            + self.direction
            + self.payload
            + self.invalid
            + self.bad_lines
    }
}

/// The link's health, for the UI.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LinkHealth {
    /// Where the link is.
    pub state: LinkState,
    /// The port in use (or last used).
    pub port: Option<PathBuf>,
    /// The tower, from its last hello.
    pub device: Option<DeviceInfo>,
    /// When the last heartbeat arrived.
    pub last_heartbeat: Option<Instant>,
    /// When the last valid frame (or roll line) arrived.
    pub last_frame: Option<Instant>,
    /// Rolls delivered.
    pub rolls: u64,
    /// Duplicate rolls dropped (resent or repeated frames).
    pub duplicates: u64,
    /// Rolls known to be lost for good, counted by sequence number (see [`LossReport`]; for
    /// a printing tower, lines).
    pub rolls_lost: u64,
    /// Losses of an unknown number of rolls (a reset the tower cannot account for, a damaged
    /// line without a counter).
    pub losses_unknown: u64,
    /// The newest loss.
    pub last_loss: Option<LossReport>,
    /// "Resend since" requests sent.
    pub resends_requested: u64,
    /// Tower resets noticed (a known tower with a new boot nonce).
    pub device_resets: u64,
    /// Times a port was opened.
    pub connects: u64,
    /// Times a port was lost.
    pub disconnects: u64,
    /// Lines that were not rolls (text mode: banners, debug prints).
    pub ignored_lines: u64,
    /// Refused frames and port failures.
    pub errors: ErrorCounts,
    /// The last port failure.
    pub last_error: Option<LinkError>,
    /// Since when the link has had no tower (the port was lost or never opened); `None`
    /// while connected.
    pub down_since: Option<Instant>,
    /// Since when the current connection has been up.
    pub connected_since: Option<Instant>,
    /// Faults the tower reported.
    pub faults: u64,
    /// The newest fault.
    pub last_fault: Option<FaultReport>,
    /// The newest "dice are falling".
    pub roll_started: Option<RollStartedReport>,
}

impl LinkHealth {
    /// Whether a tower is connected and has said hello (or a text port is open).
    pub fn is_connected(&self) -> bool {
        self.state == LinkState::Connected
    }

    /// Whether a screen showing `before` would show something else for `self`: not for the
    /// retry cycle of a link that stays down (opening, waiting, opening again, one more port
    /// failure counted), nor for a heartbeat or a frame arriving on a link that stays up. A
    /// window woken only for these changes draws nothing while the tower is absent.
    pub fn looks_different_from(&self, before: &LinkHealth) -> bool {
        fn shown(h: &LinkHealth) -> LinkHealth {
            let mut h = h.clone();
            h.last_heartbeat = None;
            h.last_frame = None;
            h.errors.io = 0;
            if h.down_since.is_some()
                && matches!(h.state, LinkState::Opening | LinkState::Waiting(_))
            {
                h.state = LinkState::Waiting(Duration::ZERO);
            }
            h
        }
        shown(self) != shown(before)
    }
}

/// A running link. Dropping it stops the link.
#[derive(Debug)]
pub struct Link {
    rolls: mpsc::UnboundedReceiver<Roll>,
    losses: mpsc::UnboundedReceiver<LossReport>,
    health: watch::Receiver<LinkHealth>,
    stop: watch::Sender<bool>,
    thread: Option<std::thread::JoinHandle<()>>,
    task: Option<tokio::task::JoinHandle<()>>,
}

struct Shared {
    rolls: mpsc::UnboundedSender<Roll>,
    losses: mpsc::UnboundedSender<LossReport>,
    health_tx: watch::Sender<LinkHealth>,
    health: LinkHealth,
    notify: Option<Notify>,
}

impl Shared {
    /// Publishes the health if it changed, and then runs the notify callback when what a
    /// screen shows of it changed ([`LinkHealth::looks_different_from`]).
    fn publish(&mut self) {
        let mut shown_change = false;
        self.health_tx.send_if_modified(|h| {
            if *h == self.health {
                false
            } else {
                shown_change = self.health.looks_different_from(h);
                h.clone_from(&self.health);
                true
            }
        });
        if shown_change && let Some(n) = &self.notify {
            (n.0)();
        }
    }

    fn set_state(&mut self, state: LinkState) {
        self.note_state(state);
        self.publish();
    }

    /// Sets the state, and when the link went down or came up.
    fn note_state(&mut self, state: LinkState) {
        let now = Instant::now();
        let was_up = self.health.state == LinkState::Connected;
        if state == LinkState::Connected {
            if !was_up {
                self.health.connected_since = Some(now);
            }
            self.health.down_since = None;
        } else {
            if was_up || self.health.down_since.is_none() {
                self.health.down_since = Some(now);
            }
            self.health.connected_since = None;
        }
        self.health.state = state;
    }

    fn fail(&mut self, e: LinkError) {
        self.health.errors.io += 1;
        self.health.last_error = Some(e);
    }
}

fn channels(config: &LinkConfig) -> Result<(Link, Shared, watch::Receiver<bool>), LinkError> {
    if config.wire == WireMode::Text && !matches!(config.port, PortChoice::Path(_)) {
        return Err(LinkError::TextNeedsPath);
    }
    let (roll_tx, roll_rx) = mpsc::unbounded_channel();
    let (loss_tx, loss_rx) = mpsc::unbounded_channel();
    let (health_tx, health_rx) = watch::channel(LinkHealth::default());
    let (stop_tx, stop_rx) = watch::channel(false);
    Ok((
        Link {
            rolls: roll_rx,
            losses: loss_rx,
            health: health_rx,
            stop: stop_tx,
            thread: None,
            task: None,
        },
        Shared {
            rolls: roll_tx,
            losses: loss_tx,
            health_tx,
            health: LinkHealth::default(),
            notify: config.notify.clone(),
        },
        stop_rx,
    ))
}

impl Link {
    /// Starts the link as a task on the current tokio runtime.
    ///
    /// # Errors
    /// [`LinkError::NoRuntime`] outside a runtime; [`LinkError::TextNeedsPath`].
    pub fn spawn(config: LinkConfig) -> Result<Link, LinkError> {
        let handle = tokio::runtime::Handle::try_current().map_err(|_| LinkError::NoRuntime)?;
        let (mut link, shared, stop) = channels(&config)?;
        link.task = Some(handle.spawn(run(config, shared, stop)));
        Ok(link)
    }

    /// Starts the link on its own thread (`tower-link`) with its own single-threaded
    /// runtime: for apps that are not async.
    ///
    /// # Errors
    /// [`LinkError::Thread`] if the thread or runtime cannot be created;
    /// [`LinkError::TextNeedsPath`].
    pub fn start(config: LinkConfig) -> Result<Link, LinkError> {
        let (mut link, shared, stop) = channels(&config)?;
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| LinkError::Thread(e.to_string()))?;
        let thread = std::thread::Builder::new()
            .name("tower-link".to_owned())
            .spawn(move || runtime.block_on(run(config, shared, stop)))
            .map_err(|e| LinkError::Thread(e.to_string()))?;
        link.thread = Some(thread);
        Ok(link)
    }

    /// The next delivered roll, if one is waiting (never blocks).
    pub fn try_recv(&mut self) -> Option<Roll> {
        self.rolls.try_recv().ok()
    }

    /// Waits for the next roll; `None` once the link has stopped and every roll was taken.
    pub async fn recv(&mut self) -> Option<Roll> {
        self.rolls.recv().await
    }

    /// The next loss report, if one is waiting (never blocks).
    pub fn try_recv_loss(&mut self) -> Option<LossReport> {
        self.losses.try_recv().ok()
    }

    /// Waits for the next loss report; `None` once the link has stopped and every report was
    /// taken.
    pub async fn recv_loss(&mut self) -> Option<LossReport> {
        self.losses.recv().await
    }

    /// The current health.
    pub fn health(&self) -> LinkHealth {
        self.health.borrow().clone()
    }

    /// A receiver that sees every health change (`changed().await`).
    pub fn watch_health(&self) -> watch::Receiver<LinkHealth> {
        self.health.clone()
    }

    /// Stops the link and closes the port; rolls already delivered stay readable.
    pub fn stop(&mut self) {
        self.stop.send_replace(true);
        if let Some(thread) = self.thread.take() {
            // A panic on the link thread would be a bug; there is nothing left to clean up.
            let _ = thread.join();
        }
    }

    /// Stops the link and waits until its task has finished (async version of
    /// [`Link::stop`]).
    pub async fn shutdown(mut self) {
        self.stop.send_replace(true);
        if let Some(task) = self.task.take() {
            let _ = task.await;
        }
        self.stop();
    }
}

impl Drop for Link {
    fn drop(&mut self) {
        self.stop.send_replace(true);
    }
}

/// Why a connection ended.
enum Ended {
    Stopped,
    Lost(LinkError),
}

async fn run(config: LinkConfig, mut shared: Shared, mut stop: watch::Receiver<bool>) {
    let mut session = Session::new(
        SessionConfig {
            start: config.start,
            resend_retry: config.resend_retry,
            ping_retry: config.ping_retry,
            reorder_window: config.reorder_window,
        },
        &config.resume,
    );
    let mut backoff = config.backoff_initial;
    let mut last_good: Option<PathBuf> = None;
    let mut lines = LineSession::default();
    loop {
        if *stop.borrow() {
            break;
        }
        shared.set_state(LinkState::Opening);
        let opened = match &config.port {
            PortChoice::Path(path) => open_port(path, config.baud_rate).map(|p| (p, path.clone())),
            PortChoice::Discover(d) => {
                let mut d = d.clone();
                if let Some(p) = &last_good {
                    d.first.insert(0, p.clone());
                }
                discover(&d, &config, &mut stop).await
            }
        };
        let (port, path) = match opened {
            Ok(ok) => ok,
            Err(e) => {
                shared.fail(e);
                if !wait(&mut shared, &mut stop, backoff).await {
                    break;
                }
                backoff = (backoff * 2).min(config.backoff_max);
                continue;
            }
        };
        shared.health.connects += 1;
        shared.health.port = Some(path.clone());
        let ended = match config.wire {
            WireMode::Framed => {
                framed_connection(port, &config, &mut session, &mut shared, &mut stop).await
            }
            WireMode::Text => text_connection(port, &mut lines, &mut shared, &mut stop).await,
        };
        match ended {
            Ended::Stopped => break,
            Ended::Lost(e) => {
                shared.health.disconnects += 1;
                let was_up = shared.health.state == LinkState::Connected;
                shared.fail(e);
                if was_up {
                    // It worked until now: come back quickly.
                    last_good = Some(path);
                    backoff = config.backoff_initial;
                }
                if !wait(&mut shared, &mut stop, backoff).await {
                    break;
                }
                backoff = (backoff * 2).min(config.backoff_max);
            }
        }
    }
    shared.set_state(LinkState::Stopped);
}

/// Sleeps for `d` unless stopped first; false if stopped.
async fn wait(shared: &mut Shared, stop: &mut watch::Receiver<bool>, d: Duration) -> bool {
    shared.set_state(LinkState::Waiting(d));
    tokio::select! {
        _ = stop.wait_for(|s| *s) => false,
        _ = tokio::time::sleep(d) => true,
    }
}

fn open_port(path: &Path, baud: u32) -> Result<SerialStream, LinkError> {
    let builder = tokio_serial::new(path.to_string_lossy(), baud);
    let port = SerialStream::open(&builder).map_err(|e| LinkError::Open {
        path: path.to_owned(),
        reason: e.to_string(),
    })?;
    // Bytes from before we opened are stale; the handshake asks for what matters.
    let _ = port.clear(tokio_serial::ClearBuffer::Input);
    Ok(port)
}

const WRITE_TIMEOUT: Duration = Duration::from_millis(500);
const TICK: Duration = Duration::from_millis(20);

async fn send(
    port: &mut SerialStream,
    msgs: &[HostMessage],
    resync: &mut bool,
) -> Result<(), LinkError> {
    if msgs.is_empty() {
        return Ok(());
    }
    let mut bytes = Vec::with_capacity(msgs.len() * 16 + 1);
    if *resync {
        // A lone delimiter ends whatever partial frame the tower's decoder holds.
        bytes.push(0);
        *resync = false;
    }
    for m in msgs {
        if let Ok(frame) = encode(m) {
            bytes.extend_from_slice(frame.as_bytes());
        }
    }
    match tokio::time::timeout(WRITE_TIMEOUT, port.write_all(&bytes)).await {
        Ok(Ok(())) => Ok(()),
        Ok(Err(e)) => Err(LinkError::Io(e.to_string())),
        Err(_) => Err(LinkError::Io("write timed out".to_owned())),
    }
}

/// Probes the candidates in order; the first whose device says hello wins. Returns the open
/// port; the session pings again on it, so the probe's hello need not be kept.
async fn discover(
    d: &Discovery,
    config: &LinkConfig,
    stop: &mut watch::Receiver<bool>,
) -> Result<(SerialStream, PathBuf), LinkError> {
    let candidates = d.candidates();
    let tried = candidates.len();
    for path in candidates {
        if *stop.borrow() {
            break;
        }
        let Ok(mut port) = open_port(&path, config.baud_rate) else {
            continue;
        };
        if probe(&mut port, config).await {
            return Ok((port, path));
        }
    }
    Err(LinkError::NotFound { tried })
}

/// Pings up to `handshake_pings` times; true when a valid hello arrives.
async fn probe(port: &mut SerialStream, config: &LinkConfig) -> bool {
    let mut decoder = FrameDecoder::new();
    let mut resync = true;
    let mut buf = [0u8; 512];
    for _ in 0..config.handshake_pings.max(1) {
        if send(port, &[HostMessage::Ping], &mut resync).await.is_err() {
            return false;
        }
        let deadline = tokio::time::Instant::now() + config.ping_retry;
        loop {
            let read = tokio::time::timeout_at(deadline, port.read(&mut buf)).await;
            match read {
                Err(_) => break, // this ping's time is up
                Ok(Ok(0) | Err(_)) => return false,
                Ok(Ok(n)) => {
                    for &b in buf.get(..n).unwrap_or(&[]) {
                        if let Some(Ok(DeviceMessage::Hello(_))) = decoder.push::<DeviceMessage>(b)
                        {
                            return true;
                        }
                    }
                }
            }
        }
    }
    false
}

fn deliver(shared: &mut Shared, out: &mut Outbox) {
    if out.rolls.is_empty() && out.losses.is_empty() {
        return;
    }
    // A dropped receiver means nobody listens any more; the link stops soon after.
    for roll in out.rolls.drain(..) {
        let _ = shared.rolls.send(roll);
    }
    for loss in out.losses.drain(..) {
        let _ = shared.losses.send(loss);
    }
    if let Some(n) = &shared.notify {
        (n.0)();
    }
}

async fn framed_connection(
    mut port: SerialStream,
    config: &LinkConfig,
    session: &mut Session,
    shared: &mut Shared,
    stop: &mut watch::Receiver<bool>,
) -> Ended {
    let mut decoder = FrameDecoder::new();
    let mut resync = true;
    let mut out = Outbox::default();
    let mut buf = [0u8; 4096];
    let mut ticker = tokio::time::interval(TICK);
    ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let opened_at = Instant::now();
    session.connected(opened_at, &mut out);
    shared.set_state(LinkState::Handshaking);
    if let Err(e) = send(&mut port, &out.send, &mut resync).await {
        return Ended::Lost(e);
    }
    out.send.clear();
    let mut last_valid = opened_at;
    let mut silence_ping: Option<Instant> = None;
    loop {
        tokio::select! {
            biased;
            _ = stop.wait_for(|s| *s) => return Ended::Stopped,
            // Ticks before reads: a flood of bytes must not starve the retries.
            _ = ticker.tick() => {
                let now = Instant::now();
                session.tick(now, &mut shared.health, &mut out);
                if !session.handshaken() && session.pings_unanswered() > config.handshake_pings {
                    return Ended::Lost(LinkError::NoHandshake { pings: session.pings_unanswered() - 1 });
                }
                let silent = now.duration_since(last_valid);
                if silent >= config.silence_timeout * 2 {
                    return Ended::Lost(LinkError::Silent(silent));
                }
                let ping_due = silence_ping
                    .is_none_or(|t| now.duration_since(t) >= config.silence_timeout / 2);
                if session.handshaken() && silent >= config.silence_timeout && ping_due {
                    out.send.push(HostMessage::Ping);
                    silence_ping = Some(now);
                }
            }
            read = port.read(&mut buf) => {
                let n = match read {
                    Ok(0) => return Ended::Lost(LinkError::Closed),
                    Ok(n) => n,
                    Err(e) => return Ended::Lost(LinkError::Io(e.to_string())),
                };
                let now = Instant::now();
                for &b in buf.get(..n).unwrap_or(&[]) {
                    match decoder.push::<DeviceMessage>(b) {
                        Some(Ok(msg)) => {
                            last_valid = now;
                            silence_ping = None;
                            session.message(msg, now, &mut shared.health, &mut out);
                        }
                        Some(Err(e)) => shared.health.errors.count(e),
                        None => {}
                    }
                }
                session.flush_ack(&mut out);
            }
        }
        let state = if session.handshaken() {
            LinkState::Connected
        } else {
            LinkState::Handshaking
        };
        shared.note_state(state);
        // Health first, so whoever takes a roll sees counters that include it.
        shared.publish();
        deliver(shared, &mut out);
        if let Err(e) = send(&mut port, &out.send, &mut resync).await {
            return Ended::Lost(e);
        }
        out.send.clear();
    }
}

async fn text_connection(
    mut port: SerialStream,
    session: &mut LineSession,
    shared: &mut Shared,
    stop: &mut watch::Receiver<bool>,
) -> Ended {
    let mut decoder = LineDecoder::new();
    let mut buf = [0u8; 1024];
    let mut out = Outbox::default();
    shared.set_state(LinkState::Connected);
    loop {
        tokio::select! {
            biased;
            _ = stop.wait_for(|s| *s) => return Ended::Stopped,
            read = port.read(&mut buf) => {
                let n = match read {
                    Ok(0) => return Ended::Lost(LinkError::Closed),
                    Ok(n) => n,
                    Err(e) => return Ended::Lost(LinkError::Io(e.to_string())),
                };
                let now = Instant::now();
                for &b in buf.get(..n).unwrap_or(&[]) {
                    if let Some(read) = decoder.push(b) {
                        session.line(read, now, &mut shared.health, &mut out);
                    }
                }
            }
        }
        shared.publish();
        deliver(shared, &mut out);
    }
}
