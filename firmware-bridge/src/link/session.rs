//! The host's protocol logic, without I/O: what to deliver, what to send, what to count.
//!
//! The driver in [`super`] feeds it decoded messages and clock ticks; it answers with rolls to
//! deliver, losses to report and host messages to send. Exactly-once, in-order delivery lives
//! here:
//!
//! - every roll is named by `(device, boot, seq)`; the session remembers, per device, the
//!   boot, the newest sequence number delivered (`delivered`), the rolls received out of
//!   order (the reorder buffer) and the newest sequence number it knows exists (`heard`),
//!   across reconnects;
//! - a roll with `seq <= delivered` is a duplicate and is dropped;
//! - a roll beyond `delivered + 1` waits in the reorder buffer while the session asks the
//!   tower to resend from `delivered`; the buffer is bounded, and when it is full it keeps the
//!   lowest sequence numbers (the tower still holds the others, and sends them again);
//! - a hello with a new boot nonce means the tower was reset: the old boot is settled first
//!   (its buffered rolls are delivered, and every roll of it that will never come is reported
//!   as a [`LossReport`] with its sequence numbers, or as an unknown loss when the tower
//!   cannot say what it lost), then `delivered` restarts at 0 for the new boot;
//! - a heartbeat whose `last_seq` is ahead of `delivered` reveals lost rolls at the tail;
//! - a tower's `Fault` 3 or 4 names rolls it no longer holds: they are reported lost.
//!
//! Nothing received intact is ever dropped without being delivered or counted.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use crate::message::{
    Ack, BootId, DeviceId, DeviceMessage, FaultCode, Hello, HostMessage, ResendSince, RollResult,
};
use crate::tower::RESEND_BURST;

use super::{
    DeviceInfo, FaultReport, LinkHealth, LossCause, LossReport, Lost, ResumePoint, Roll,
    RollStartedReport, StartFrom, TowerRef,
};

/// Tuning of the session (a part of [`super::LinkConfig`]).
#[derive(Clone, Debug)]
pub(crate) struct SessionConfig {
    pub start: StartFrom,
    pub resend_retry: Duration,
    pub ping_retry: Duration,
    pub reorder_window: usize,
}

/// What the session knows of one tower's current boot.
#[derive(Clone, Debug)]
struct Progress {
    boot: BootId,
    /// The newest roll delivered, with every one before it.
    delivered: u32,
    /// Rolls received beyond `delivered + 1`, waiting for the ones before them.
    pending: BTreeMap<u32, RollResult>,
    /// The newest sequence number known to exist (from rolls, heartbeats, hellos).
    heard: u32,
}

impl Progress {
    fn new(boot: BootId, delivered: u32, heard: u32) -> Progress {
        Progress {
            boot,
            delivered,
            pending: BTreeMap::new(),
            heard: heard.max(delivered),
        }
    }
}

#[derive(Clone, Copy, Debug)]
struct Current {
    device: DeviceId,
    boot: BootId,
}

/// What the session wants done after a call.
#[derive(Debug, Default)]
pub(crate) struct Outbox {
    pub rolls: Vec<Roll>,
    pub losses: Vec<LossReport>,
    pub send: Vec<HostMessage>,
}

#[derive(Debug)]
pub(crate) struct Session {
    config: SessionConfig,
    known: BTreeMap<DeviceId, Progress>,
    current: Option<Current>,
    /// When the current port was opened: a roll thrown before it was thrown offline.
    opened_at: Option<Instant>,
    resend_at: Option<Instant>,
    /// The `seq` of the resend request in flight.
    resend_since: Option<u32>,
    ping_at: Option<Instant>,
    pings_unanswered: u32,
    ack_due: bool,
}

impl Session {
    pub fn new(config: SessionConfig, resume: &[ResumePoint]) -> Session {
        let known = resume
            .iter()
            .map(|r| (r.device, Progress::new(r.boot, r.seq, r.seq)))
            .collect();
        Session {
            config,
            known,
            current: None,
            opened_at: None,
            resend_at: None,
            resend_since: None,
            ping_at: None,
            pings_unanswered: 0,
            ack_due: false,
        }
    }

    /// Whether the current connection has seen a hello.
    pub fn handshaken(&self) -> bool {
        self.current.is_some()
    }

    /// Pings sent on this connection without a hello in answer.
    pub fn pings_unanswered(&self) -> u32 {
        self.pings_unanswered
    }

    /// Rolls held in the reorder buffers (for tests and health).
    #[cfg(test)]
    fn buffered(&self) -> usize {
        self.known.values().map(|p| p.pending.len()).sum()
    }

    /// A port was (re)opened: ask who is there. What is known of each tower (its reorder
    /// buffer too) is kept until its hello says whether it is the same boot.
    pub fn connected(&mut self, now: Instant, out: &mut Outbox) {
        self.current = None;
        self.opened_at = Some(now);
        self.resend_at = None;
        self.resend_since = None;
        self.ack_due = false;
        self.pings_unanswered = 0;
        self.ping(now, out);
    }

    fn ping(&mut self, now: Instant, out: &mut Outbox) {
        out.send.push(HostMessage::Ping);
        self.ping_at = Some(now);
        self.pings_unanswered = self.pings_unanswered.saturating_add(1);
    }

    fn ping_if_due(&mut self, now: Instant, out: &mut Outbox) {
        let due = self
            .ping_at
            .is_none_or(|t| now.duration_since(t) >= self.config.ping_retry);
        if due {
            self.ping(now, out);
        }
    }

    fn progress(&self) -> Option<&Progress> {
        self.current.and_then(|c| self.known.get(&c.device))
    }

    fn progress_mut(&mut self) -> Option<&mut Progress> {
        let device = self.current?.device;
        self.known.get_mut(&device)
    }

    fn delivered(&self) -> u32 {
        self.progress().map_or(0, |p| p.delivered)
    }

    fn wants_resend(&self) -> bool {
        self.progress()
            .is_some_and(|p| !p.pending.is_empty() || p.heard > p.delivered)
    }

    fn request_resend(
        &mut self,
        now: Instant,
        force: bool,
        health: &mut LinkHealth,
        out: &mut Outbox,
    ) {
        let Some(c) = self.current else { return };
        let due = force
            || self
                .resend_at
                .is_none_or(|t| now.duration_since(t) >= self.config.resend_retry);
        if !due {
            return;
        }
        let seq = self.delivered();
        out.send
            .push(HostMessage::ResendSince(ResendSince { boot: c.boot, seq }));
        self.resend_at = Some(now);
        self.resend_since = Some(seq);
        health.resends_requested += 1;
    }

    /// Hands a roll of `device`'s `boot` to the app.
    fn hand_over(
        &self,
        device: DeviceId,
        boot: BootId,
        r: &RollResult,
        now: Instant,
        health: &mut LinkHealth,
        out: &mut Outbox,
    ) {
        health.rolls += 1;
        let age = Duration::from_millis(u64::from(r.age_ms));
        let thrown_at = now.checked_sub(age).unwrap_or(now);
        let offline = self.opened_at.is_none_or(|opened| thrown_at < opened);
        out.rolls.push(Roll {
            device: TowerRef::Framed { id: device, boot },
            seq: r.seq,
            throw: r.throw,
            die: r.die,
            sides: r.sides,
            value: r.value,
            received_at: now,
            thrown_at,
            offline,
        });
    }

    fn deliver(&mut self, r: RollResult, now: Instant, health: &mut LinkHealth, out: &mut Outbox) {
        let Some(c) = self.current else { return };
        self.hand_over(c.device, c.boot, &r, now, health, out);
        if let Some(p) = self.progress_mut() {
            p.delivered = r.seq;
        }
        self.ack_due = true;
    }

    fn drain_pending(&mut self, now: Instant, health: &mut LinkHealth, out: &mut Outbox) {
        loop {
            let next = self.delivered().wrapping_add(1);
            let Some(r) = self.progress_mut().and_then(|p| p.pending.remove(&next)) else {
                break;
            };
            self.deliver(r, now, health, out);
        }
        if !self.wants_resend() {
            self.resend_at = None;
            self.resend_since = None;
        }
    }

    fn report_loss(
        health: &mut LinkHealth,
        out: &mut Outbox,
        tower: TowerRef,
        lost: Lost,
        cause: LossCause,
        now: Instant,
    ) {
        match lost {
            Lost::Seqs { first, last } => {
                health.rolls_lost += u64::from(last - first) + 1;
            }
            Lost::Unknown { .. } => health.losses_unknown += 1,
        }
        let report = LossReport {
            tower,
            lost,
            cause,
            at: now,
        };
        health.last_loss = Some(report);
        out.losses.push(report);
    }

    /// The tower says rolls up to `last_gone` are gone for good: deliver what we have of them,
    /// report the rest as lost, and move on.
    fn skip_to(
        &mut self,
        last_gone: u32,
        cause: LossCause,
        now: Instant,
        health: &mut LinkHealth,
        out: &mut Outbox,
    ) {
        let Some(c) = self.current else { return };
        let tower = TowerRef::Framed {
            id: c.device,
            boot: c.boot,
        };
        if last_gone <= self.delivered() {
            return;
        }
        let held: Vec<RollResult> = match self.progress_mut() {
            Some(p) => {
                let keys: Vec<u32> = p.pending.range(..=last_gone).map(|(k, _)| *k).collect();
                keys.iter().filter_map(|k| p.pending.remove(k)).collect()
            }
            None => return,
        };
        for r in held {
            let next = self.delivered().wrapping_add(1);
            if r.seq > next {
                let lost = Lost::Seqs {
                    first: next,
                    last: r.seq - 1,
                };
                Self::report_loss(health, out, tower, lost, cause, now);
            }
            self.deliver(r, now, health, out);
        }
        let next = self.delivered().wrapping_add(1);
        if last_gone >= next {
            let lost = Lost::Seqs {
                first: next,
                last: last_gone,
            };
            Self::report_loss(health, out, tower, lost, cause, now);
        }
        if let Some(p) = self.progress_mut() {
            p.delivered = last_gone;
            p.heard = p.heard.max(last_gone);
        }
        self.ack_due = true;
        self.drain_pending(now, health, out);
    }

    /// The tower came back with a new boot: every roll of the old boot is delivered (the
    /// buffered ones) or reported lost, exactly when the hello names the old boot and its
    /// last roll, as an unknown loss when it cannot.
    fn settle_reset(
        &self,
        device: DeviceId,
        old: Progress,
        h: &Hello,
        now: Instant,
        health: &mut LinkHealth,
        out: &mut Outbox,
    ) {
        let tower = TowerRef::Framed {
            id: device,
            boot: old.boot,
        };
        let exact = h.prev_boot == old.boot;
        let end = if exact {
            h.prev_last_seq.max(old.heard)
        } else {
            old.heard
        };
        let mut next = old.delivered.wrapping_add(1);
        for (seq, r) in &old.pending {
            if *seq < next {
                continue;
            }
            if *seq > next {
                let lost = Lost::Seqs {
                    first: next,
                    last: seq - 1,
                };
                Self::report_loss(health, out, tower, lost, LossCause::Reset, now);
            }
            self.hand_over(device, old.boot, r, now, health, out);
            next = seq.wrapping_add(1);
        }
        if end >= next {
            let lost = Lost::Seqs {
                first: next,
                last: end,
            };
            Self::report_loss(health, out, tower, lost, LossCause::Reset, now);
            next = end.wrapping_add(1);
        }
        if !exact {
            let lost = Lost::Unknown {
                after: next.wrapping_sub(1),
            };
            Self::report_loss(health, out, tower, lost, LossCause::Reset, now);
        }
    }

    fn hello(&mut self, h: Hello, now: Instant, health: &mut LinkHealth, out: &mut Outbox) {
        let progress = match self.known.remove(&h.device) {
            Some(mut p) if p.boot == h.boot => {
                p.heard = p.heard.max(h.last_seq);
                p
            }
            Some(old) => {
                health.device_resets += 1;
                self.settle_reset(h.device, old, &h, now, health, out);
                Progress::new(h.boot, 0, h.last_seq)
            }
            None => {
                let delivered = match self.config.start {
                    StartFrom::Held => 0,
                    StartFrom::Now => h.last_seq,
                };
                Progress::new(h.boot, delivered, h.last_seq)
            }
        };
        let delivered = progress.delivered;
        let behind = progress.heard > delivered || !progress.pending.is_empty();
        self.known.insert(h.device, progress);
        let same = self
            .current
            .is_some_and(|c| c.device == h.device && c.boot == h.boot);
        if !same {
            self.resend_at = None;
            self.resend_since = None;
        }
        self.current = Some(Current {
            device: h.device,
            boot: h.boot,
        });
        self.pings_unanswered = 0;
        self.ping_at = None;
        health.device = Some(DeviceInfo {
            id: h.device,
            boot: h.boot,
            protocol: h.protocol,
            firmware: h.firmware,
            dice: h.dice.as_slice().to_vec(),
        });
        if delivered > 0 {
            out.send.push(HostMessage::Ack(Ack {
                boot: h.boot,
                seq: delivered,
            }));
        }
        if behind {
            self.request_resend(now, true, health, out);
        }
    }

    /// Whether `boot` is the current connection's; if not, ask for a hello.
    fn check_boot(&mut self, boot: BootId, now: Instant, out: &mut Outbox) -> bool {
        if self.current.is_some_and(|c| c.boot == boot) {
            true
        } else {
            self.ping_if_due(now, out);
            false
        }
    }

    fn roll(&mut self, r: RollResult, now: Instant, health: &mut LinkHealth, out: &mut Outbox) {
        if !self.check_boot(r.boot, now, out) {
            health.errors.stray_rolls += 1;
            return;
        }
        let window = self.config.reorder_window.max(1);
        let Some(p) = self.progress_mut() else { return };
        p.heard = p.heard.max(r.seq);
        let delivered = p.delivered;
        if r.seq <= delivered || p.pending.contains_key(&r.seq) {
            health.duplicates += 1;
        } else if r.seq == delivered.wrapping_add(1) {
            self.deliver(r, now, health, out);
            self.drain_pending(now, health, out);
            if let Some(since) = self.resend_since {
                if self.wants_resend()
                    && self.delivered() >= since.saturating_add(RESEND_BURST as u32)
                {
                    // The burst asked for has arrived: ask for the next one now.
                    self.request_resend(now, true, health, out);
                } else if self.resend_at.is_some() {
                    // Progress: give the resend in flight more time.
                    self.resend_at = Some(now);
                }
            }
        } else {
            if p.pending.len() >= window {
                // Full: keep the lowest sequence numbers, which unblock delivery first. The
                // tower still holds the one left out and sends it again on request.
                match p.pending.last_key_value() {
                    Some((&highest, _)) if highest > r.seq => {
                        p.pending.remove(&highest);
                        p.pending.insert(r.seq, r);
                    }
                    _ => {}
                }
            } else {
                p.pending.insert(r.seq, r);
            }
            self.request_resend(now, false, health, out);
        }
    }

    /// Acts on one decoded message.
    pub fn message(
        &mut self,
        msg: DeviceMessage,
        now: Instant,
        health: &mut LinkHealth,
        out: &mut Outbox,
    ) {
        health.last_frame = Some(now);
        match msg {
            DeviceMessage::Hello(h) => self.hello(h, now, health, out),
            DeviceMessage::RollResult(r) => self.roll(r, now, health, out),
            DeviceMessage::Heartbeat(hb) => {
                health.last_heartbeat = Some(now);
                if !self.check_boot(hb.boot, now, out) {
                    return;
                }
                if let Some(p) = self.progress_mut() {
                    p.heard = p.heard.max(hb.last_seq);
                }
                if self.delivered() > 0 {
                    self.ack_due = true;
                }
                if self.wants_resend() {
                    self.request_resend(now, false, health, out);
                }
            }
            DeviceMessage::RollStarted(rs) => {
                if self.check_boot(rs.boot, now, out) {
                    health.roll_started = Some(RollStartedReport {
                        dice: rs.dice,
                        at: now,
                    });
                }
            }
            DeviceMessage::Fault(f) => {
                health.faults += 1;
                health.last_fault = Some(FaultReport { fault: f, at: now });
                if !self.check_boot(f.boot, now, out) {
                    return;
                }
                match f.code {
                    FaultCode::ResendUnavailable => self.skip_to(
                        f.detail.saturating_sub(1),
                        LossCause::ResendUnavailable,
                        now,
                        health,
                        out,
                    ),
                    FaultCode::HistoryOverflow => {
                        self.skip_to(f.detail, LossCause::HistoryOverflow, now, health, out);
                    }
                    _ => {}
                }
            }
        }
    }

    /// Time passed: retry pings and resends that got no answer.
    pub fn tick(&mut self, now: Instant, health: &mut LinkHealth, out: &mut Outbox) {
        if self.current.is_none() {
            self.ping_if_due(now, out);
        } else if self.wants_resend() {
            self.request_resend(now, false, health, out);
        }
    }

    /// Queues the cumulative ack if rolls were delivered since the last one.
    pub fn flush_ack(&mut self, out: &mut Outbox) {
        if !self.ack_due {
            return;
        }
        self.ack_due = false;
        if let Some(c) = self.current {
            let seq = self.delivered();
            if seq > 0 {
                out.send.push(HostMessage::Ack(Ack { boot: c.boot, seq }));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::message::{DiceSet, Fault, FirmwareVersion, Heartbeat};

    const DEV: DeviceId = DeviceId(42);

    fn session(start: StartFrom) -> Session {
        Session::new(
            SessionConfig {
                start,
                resend_retry: Duration::from_millis(100),
                ping_retry: Duration::from_millis(100),
                reorder_window: 64,
            },
            &[],
        )
    }

    fn hello_after(boot: u32, last_seq: u32, prev_boot: u32, prev_last_seq: u32) -> DeviceMessage {
        DeviceMessage::Hello(Hello {
            protocol: 1,
            device: DEV,
            boot: BootId(boot),
            firmware: FirmwareVersion {
                major: 1,
                minor: 0,
                patch: 0,
            },
            dice: DiceSet::new(&[6]).unwrap(),
            last_seq,
            prev_boot: BootId(prev_boot),
            prev_last_seq,
        })
    }

    fn hello(boot: u32, last_seq: u32) -> DeviceMessage {
        hello_after(boot, last_seq, 0, 0)
    }

    fn roll_aged(boot: u32, seq: u32, age_ms: u32) -> DeviceMessage {
        DeviceMessage::RollResult(RollResult {
            boot: BootId(boot),
            seq,
            throw: seq,
            die: 0,
            sides: 6,
            value: (seq % 6 + 1) as u8,
            age_ms,
        })
    }

    fn roll(boot: u32, seq: u32) -> DeviceMessage {
        roll_aged(boot, seq, 0)
    }

    struct Harness {
        s: Session,
        h: LinkHealth,
        now: Instant,
        delivered: Vec<(u32, u32)>,
        rolls: Vec<Roll>,
        losses: Vec<(u32, Lost, LossCause)>,
        sent: Vec<HostMessage>,
    }

    impl Harness {
        fn new(start: StartFrom) -> Harness {
            let mut h = Harness {
                s: session(start),
                h: LinkHealth::default(),
                now: Instant::now() + Duration::from_secs(3600),
                delivered: Vec::new(),
                rolls: Vec::new(),
                losses: Vec::new(),
                sent: Vec::new(),
            };
            h.reconnect();
            h
        }
        fn reconnect(&mut self) {
            let mut out = Outbox::default();
            self.s.connected(self.now, &mut out);
            self.collect(out);
        }
        fn collect(&mut self, out: Outbox) {
            for r in out.rolls {
                let TowerRef::Framed { boot, .. } = r.device else {
                    panic!("text roll")
                };
                self.delivered.push((boot.0, r.seq));
                self.rolls.push(r);
            }
            for l in out.losses {
                let TowerRef::Framed { boot, .. } = l.tower else {
                    panic!("text loss")
                };
                self.losses.push((boot.0, l.lost, l.cause));
            }
            self.sent.extend(out.send);
        }
        fn feed(&mut self, m: DeviceMessage) {
            let mut out = Outbox::default();
            self.s.message(m, self.now, &mut self.h, &mut out);
            self.s.flush_ack(&mut out);
            self.collect(out);
        }
        fn advance(&mut self, ms: u64) {
            self.now += Duration::from_millis(ms);
            let mut out = Outbox::default();
            self.s.tick(self.now, &mut self.h, &mut out);
            self.collect(out);
        }
        fn resends(&self) -> Vec<u32> {
            self.sent
                .iter()
                .filter_map(|m| match m {
                    HostMessage::ResendSince(r) => Some(r.seq),
                    _ => None,
                })
                .collect()
        }
    }

    fn seqs(first: u32, last: u32) -> Lost {
        Lost::Seqs { first, last }
    }

    #[test]
    fn in_order_duplicates_and_gaps() {
        let mut t = Harness::new(StartFrom::Held);
        assert_eq!(t.sent, vec![HostMessage::Ping]);
        t.feed(hello(7, 0));
        t.feed(roll(7, 1));
        t.feed(roll(7, 1)); // duplicate
        t.feed(roll(7, 3)); // gap: 2 lost
        t.feed(roll(7, 4));
        assert_eq!(t.delivered, vec![(7, 1)]);
        assert_eq!(t.resends(), vec![1]);
        t.feed(roll(7, 2)); // resent
        t.feed(roll(7, 3)); // resent, already buffered
        assert_eq!(t.delivered, vec![(7, 1), (7, 2), (7, 3), (7, 4)]);
        assert_eq!(t.h.duplicates, 2);
        assert_eq!(t.h.rolls, 4);
        assert!(matches!(
            t.sent.last(),
            Some(HostMessage::Ack(Ack { seq: 4, .. }))
        ));
    }

    #[test]
    fn rolls_before_hello_are_strays_and_trigger_a_ping() {
        let mut t = Harness::new(StartFrom::Held);
        t.advance(200);
        t.feed(roll(7, 1));
        assert!(t.delivered.is_empty());
        assert_eq!(t.h.errors.stray_rolls, 1);
        assert_eq!(t.sent, vec![HostMessage::Ping, HostMessage::Ping]);
        t.feed(hello(7, 1));
        assert_eq!(t.resends(), vec![0]);
        t.feed(roll(7, 1));
        assert_eq!(t.delivered, vec![(7, 1)]);
    }

    #[test]
    fn a_reset_after_everything_arrived_loses_nothing_it_can_name() {
        let mut t = Harness::new(StartFrom::Held);
        t.feed(hello(7, 0));
        for s in 1..=3 {
            t.feed(roll(7, s));
        }
        // The tower resets and remembers its previous boot: nothing was lost.
        t.feed(hello_after(8, 0, 7, 3));
        t.feed(roll(8, 1));
        t.feed(roll(8, 2));
        assert_eq!(t.delivered, vec![(7, 1), (7, 2), (7, 3), (8, 1), (8, 2)]);
        assert_eq!(t.h.device_resets, 1);
        assert_eq!(t.h.duplicates, 0);
        assert!(t.losses.is_empty(), "{:?}", t.losses);
        assert_eq!(t.h.rolls_lost, 0);
    }

    #[test]
    fn a_reset_delivers_the_buffered_rolls_and_names_every_lost_one() {
        let mut t = Harness::new(StartFrom::Held);
        t.feed(hello(7, 0));
        t.feed(roll(7, 1));
        t.feed(roll(7, 3)); // 2 is missing; 3 and 5 are buffered
        t.feed(roll(7, 5));
        // The tower resets before resending: its hello says boot 7 ended at seq 6.
        t.feed(hello_after(8, 0, 7, 6));
        assert_eq!(t.delivered, vec![(7, 1), (7, 3), (7, 5)]);
        assert_eq!(
            t.losses,
            vec![
                (7, seqs(2, 2), LossCause::Reset),
                (7, seqs(4, 4), LossCause::Reset),
                (7, seqs(6, 6), LossCause::Reset),
            ]
        );
        assert_eq!(t.h.rolls_lost, 3);
        assert_eq!(t.h.losses_unknown, 0);
        t.feed(roll(8, 1));
        assert_eq!(t.delivered.last(), Some(&(8, 1)));
    }

    #[test]
    fn a_reset_during_an_unplug_keeps_the_buffer_and_counts_the_rest() {
        let mut t = Harness::new(StartFrom::Held);
        t.feed(hello(7, 0));
        t.feed(roll(7, 1));
        t.feed(roll(7, 4));
        // Unplugged: the port reopens, the buffer must survive it.
        t.advance(50);
        t.reconnect();
        assert_eq!(t.s.buffered(), 1);
        t.feed(hello_after(9, 2, 7, 5));
        assert_eq!(t.delivered, vec![(7, 1), (7, 4)]);
        assert_eq!(
            t.losses,
            vec![
                (7, seqs(2, 3), LossCause::Reset),
                (7, seqs(5, 5), LossCause::Reset),
            ]
        );
        // The new boot's rolls are asked for from the start.
        assert_eq!(t.resends(), vec![1, 0]);
    }

    #[test]
    fn a_tower_that_cannot_say_what_it_lost_is_an_unknown_loss() {
        let mut t = Harness::new(StartFrom::Held);
        t.feed(hello(7, 0));
        t.feed(roll(7, 1));
        t.feed(DeviceMessage::Heartbeat(Heartbeat {
            boot: BootId(7),
            last_seq: 3,
            uptime_ms: 1,
        }));
        t.feed(hello(8, 0)); // no previous boot named
        assert_eq!(
            t.losses,
            vec![
                (7, seqs(2, 3), LossCause::Reset),
                (7, Lost::Unknown { after: 3 }, LossCause::Reset),
            ]
        );
        assert_eq!((t.h.rolls_lost, t.h.losses_unknown), (2, 1));
        // A hello naming another boot than the one we knew (two resets): unknown too.
        t.feed(roll(8, 1));
        t.feed(hello_after(10, 0, 9, 4));
        assert_eq!(
            t.losses.last(),
            Some(&(8, Lost::Unknown { after: 1 }, LossCause::Reset))
        );
    }

    #[test]
    fn reset_with_lost_hello_is_caught_by_the_boot_in_each_roll() {
        let mut t = Harness::new(StartFrom::Held);
        t.feed(hello(7, 0));
        t.feed(roll(7, 1));
        t.feed(roll(8, 1)); // new boot's first roll, its hello was lost
        assert_eq!(t.delivered, vec![(7, 1)]);
        assert_eq!(
            t.sent.iter().filter(|m| **m == HostMessage::Ping).count(),
            2
        );
        t.feed(hello_after(8, 1, 7, 1));
        t.feed(roll(8, 1));
        assert_eq!(t.delivered, vec![(7, 1), (8, 1)]);
        assert!(t.losses.is_empty());
    }

    #[test]
    fn reconnect_resumes_with_resend_since_delivered() {
        let mut t = Harness::new(StartFrom::Held);
        t.feed(hello(7, 0));
        t.feed(roll(7, 1));
        t.feed(roll(7, 2));
        t.reconnect();
        t.feed(hello(7, 5));
        assert_eq!(t.resends(), vec![2]);
        for s in 1..=5 {
            t.feed(roll(7, s));
        }
        assert_eq!(t.delivered.len(), 5);
        assert_eq!(t.h.duplicates, 2);
    }

    #[test]
    fn start_now_skips_rolls_held_before_first_contact() {
        let mut t = Harness::new(StartFrom::Now);
        t.feed(hello(7, 10));
        assert!(t.resends().is_empty());
        t.feed(roll(7, 10));
        t.feed(roll(7, 11));
        assert_eq!(t.delivered, vec![(7, 11)]);
    }

    #[test]
    fn heartbeat_reveals_tail_loss_and_retries_are_rate_limited() {
        let mut t = Harness::new(StartFrom::Held);
        t.feed(hello(7, 0));
        t.feed(roll(7, 1));
        let hb = DeviceMessage::Heartbeat(Heartbeat {
            boot: BootId(7),
            last_seq: 2,
            uptime_ms: 5,
        });
        t.feed(hb);
        assert_eq!(t.resends(), vec![1]);
        t.advance(10);
        t.feed(hb);
        assert_eq!(t.resends(), vec![1]);
        t.advance(150);
        assert_eq!(t.resends(), vec![1, 1]);
        t.feed(roll(7, 2));
        t.advance(500);
        assert_eq!(t.resends(), vec![1, 1]);
        assert_eq!(t.delivered.len(), 2);
    }

    #[test]
    fn resend_unavailable_counts_lost_rolls_and_moves_on() {
        let mut t = Harness::new(StartFrom::Held);
        t.feed(hello(7, 0));
        t.feed(roll(7, 1));
        t.feed(roll(7, 5));
        t.feed(DeviceMessage::Fault(Fault {
            boot: BootId(7),
            code: FaultCode::ResendUnavailable,
            detail: 4,
        }));
        t.feed(roll(7, 4));
        assert_eq!(t.delivered, vec![(7, 1), (7, 4), (7, 5)]);
        assert_eq!(t.h.rolls_lost, 2);
        assert_eq!(
            t.losses,
            vec![(7, seqs(2, 3), LossCause::ResendUnavailable)]
        );
    }

    #[test]
    fn overflow_between_buffered_rolls_names_each_gap() {
        let mut t = Harness::new(StartFrom::Held);
        t.feed(hello(7, 0));
        t.feed(roll(7, 3));
        t.feed(roll(7, 6));
        t.feed(DeviceMessage::Fault(Fault {
            boot: BootId(7),
            code: FaultCode::HistoryOverflow,
            detail: 7,
        }));
        assert_eq!(t.delivered, vec![(7, 3), (7, 6)]);
        assert_eq!(
            t.losses,
            vec![
                (7, seqs(1, 2), LossCause::HistoryOverflow),
                (7, seqs(4, 5), LossCause::HistoryOverflow),
                (7, seqs(7, 7), LossCause::HistoryOverflow),
            ]
        );
        assert_eq!(t.h.rolls_lost, 5);
    }

    #[test]
    fn huge_fault_detail_does_not_loop_or_overflow() {
        let mut t = Harness::new(StartFrom::Held);
        t.feed(hello(7, 0));
        t.feed(DeviceMessage::Fault(Fault {
            boot: BootId(7),
            code: FaultCode::HistoryOverflow,
            detail: u32::MAX,
        }));
        assert_eq!(t.h.rolls_lost, u64::from(u32::MAX));
        t.feed(roll(7, 3));
        assert!(t.delivered.is_empty());
    }

    #[test]
    fn a_full_reorder_buffer_keeps_the_lowest_rolls_and_loses_none() {
        let mut t = Harness::new(StartFrom::Held);
        t.feed(hello(7, 0));
        // 200 rolls arrive out of order, newest first; seq 1 is missing.
        for s in (2..=201).rev() {
            t.feed(roll(7, s));
        }
        assert_eq!(t.s.buffered(), 64);
        // Resent in order, every roll arrives exactly once.
        for s in 1..=201 {
            t.feed(roll(7, s));
        }
        assert_eq!(t.delivered.len(), 201);
        assert!(t.delivered.windows(2).all(|w| w[1].1 == w[0].1 + 1));
        assert!(t.losses.is_empty());
    }

    #[test]
    fn a_late_roll_says_when_it_was_thrown_and_that_the_link_was_down() {
        let mut t = Harness::new(StartFrom::Held);
        t.feed(hello(7, 0));
        t.advance(100);
        t.feed(roll_aged(7, 1, 5));
        t.advance(1_000);
        t.reconnect();
        t.feed(hello(7, 2));
        t.feed(roll_aged(7, 2, 18_000));
        let [fresh, late] = &t.rolls[..] else {
            panic!("{:?}", t.rolls)
        };
        assert!(!fresh.offline);
        assert_eq!(
            fresh.received_at - fresh.thrown_at,
            Duration::from_millis(5)
        );
        assert!(late.offline, "thrown before the port was opened again");
        assert_eq!(late.received_at - late.thrown_at, Duration::from_secs(18));
    }

    #[test]
    fn a_burst_that_arrived_asks_for_the_next_at_once() {
        let mut t = Harness::new(StartFrom::Held);
        t.feed(hello(7, 100));
        assert_eq!(t.resends(), vec![0]);
        for s in 1..=RESEND_BURST as u32 {
            t.feed(roll(7, s));
        }
        assert_eq!(t.resends(), vec![0, RESEND_BURST as u32]);
    }
}
