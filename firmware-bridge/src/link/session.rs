//! The host's protocol logic, without I/O: what to deliver, what to send, what to count.
//!
//! The driver in [`super`] feeds it decoded messages and clock ticks; it answers with rolls to
//! deliver and host messages to send. Exactly-once, in-order delivery lives here:
//!
//! - every roll is named by `(device, boot, seq)`; the session remembers, per device, the
//!   boot and the newest sequence number delivered (`delivered`), across reconnects;
//! - a roll with `seq <= delivered` is a duplicate and is dropped;
//! - a roll beyond `delivered + 1` waits in a reorder buffer while the session asks the tower
//!   to resend from `delivered`;
//! - a hello or heartbeat with a new boot nonce means the tower was reset: its sequence
//!   numbers restart, so `delivered` restarts at 0 for the new boot;
//! - a heartbeat whose `last_seq` is ahead of `delivered` reveals lost rolls at the tail.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use crate::message::{
    Ack, BootId, DeviceId, DeviceMessage, FaultCode, Hello, HostMessage, ResendSince, RollResult,
};

use super::{
    DeviceInfo, FaultReport, LinkHealth, LossReport, ResumePoint, Roll, RollStartedReport,
    StartFrom, TowerRef,
};

/// Tuning of the session (a part of [`super::LinkConfig`]).
#[derive(Clone, Debug)]
pub(crate) struct SessionConfig {
    pub start: StartFrom,
    pub resend_retry: Duration,
    pub ping_retry: Duration,
    pub reorder_window: usize,
}

#[derive(Clone, Copy, Debug)]
struct Progress {
    boot: BootId,
    delivered: u32,
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
    pub send: Vec<HostMessage>,
}

#[derive(Debug)]
pub(crate) struct Session {
    config: SessionConfig,
    known: BTreeMap<DeviceId, Progress>,
    current: Option<Current>,
    pending: BTreeMap<u32, RollResult>,
    peer_last_seq: u32,
    resend_at: Option<Instant>,
    ping_at: Option<Instant>,
    pings_unanswered: u32,
    ack_due: bool,
}

impl Session {
    pub fn new(config: SessionConfig, resume: &[ResumePoint]) -> Session {
        let known = resume
            .iter()
            .map(|r| {
                (
                    r.device,
                    Progress {
                        boot: r.boot,
                        delivered: r.seq,
                    },
                )
            })
            .collect();
        Session {
            config,
            known,
            current: None,
            pending: BTreeMap::new(),
            peer_last_seq: 0,
            resend_at: None,
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

    /// A port was (re)opened: forget the connection's state and ask who is there.
    pub fn connected(&mut self, now: Instant, out: &mut Outbox) {
        self.current = None;
        self.pending.clear();
        self.peer_last_seq = 0;
        self.resend_at = None;
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

    fn delivered(&self) -> u32 {
        self.current
            .and_then(|c| self.known.get(&c.device))
            .map_or(0, |p| p.delivered)
    }

    fn set_delivered(&mut self, seq: u32) {
        if let Some(c) = self.current
            && let Some(p) = self.known.get_mut(&c.device)
        {
            p.delivered = seq;
        }
    }

    fn wants_resend(&self) -> bool {
        self.current.is_some()
            && (!self.pending.is_empty() || self.peer_last_seq > self.delivered())
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
        out.send.push(HostMessage::ResendSince(ResendSince {
            boot: c.boot,
            seq: self.delivered(),
        }));
        self.resend_at = Some(now);
        health.resends_requested += 1;
    }

    fn deliver(&mut self, r: RollResult, now: Instant, health: &mut LinkHealth, out: &mut Outbox) {
        let Some(c) = self.current else { return };
        self.set_delivered(r.seq);
        self.ack_due = true;
        health.rolls += 1;
        out.rolls.push(Roll {
            device: TowerRef::Framed {
                id: c.device,
                boot: c.boot,
            },
            seq: r.seq,
            throw: r.throw,
            die: r.die,
            sides: r.sides,
            value: r.value,
            received_at: now,
        });
    }

    fn drain_pending(&mut self, now: Instant, health: &mut LinkHealth, out: &mut Outbox) {
        loop {
            let next = self.delivered().wrapping_add(1);
            match self.pending.remove(&next) {
                Some(r) => self.deliver(r, now, health, out),
                None => break,
            }
        }
        if !self.wants_resend() {
            self.resend_at = None;
        }
    }

    /// The tower says rolls up to `last_gone` are gone for good: deliver what we have of them,
    /// count the rest as lost, and move on.
    fn skip_to(&mut self, last_gone: u32, now: Instant, health: &mut LinkHealth, out: &mut Outbox) {
        let Some(c) = self.current else { return };
        let first = self.delivered().wrapping_add(1);
        if last_gone < first {
            return;
        }
        let mut lost: u64 = 0;
        let keys: Vec<u32> = self.pending.range(..=last_gone).map(|(k, _)| *k).collect();
        for k in keys {
            if let Some(r) = self.pending.remove(&k) {
                lost += u64::from(k - self.delivered() - 1);
                self.deliver(r, now, health, out);
            }
        }
        lost += u64::from(last_gone - self.delivered());
        self.set_delivered(last_gone);
        self.ack_due = true;
        if lost > 0 {
            health.rolls_lost += lost;
            health.last_loss = Some(LossReport {
                device: c.device,
                boot: c.boot,
                first,
                last: last_gone,
                at: now,
            });
        }
        self.drain_pending(now, health, out);
    }

    fn hello(&mut self, h: Hello, now: Instant, health: &mut LinkHealth, out: &mut Outbox) {
        let delivered = match self.known.get(&h.device) {
            Some(p) if p.boot == h.boot => p.delivered,
            Some(_) => {
                health.device_resets += 1;
                0
            }
            None => match self.config.start {
                StartFrom::Held => 0,
                StartFrom::Now => h.last_seq,
            },
        };
        let same = self
            .current
            .is_some_and(|c| c.device == h.device && c.boot == h.boot);
        if !same {
            self.pending.clear();
            self.resend_at = None;
            self.peer_last_seq = 0;
        }
        self.known.insert(
            h.device,
            Progress {
                boot: h.boot,
                delivered,
            },
        );
        self.current = Some(Current {
            device: h.device,
            boot: h.boot,
        });
        self.pings_unanswered = 0;
        self.ping_at = None;
        self.peer_last_seq = self.peer_last_seq.max(h.last_seq);
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
        if h.last_seq > delivered {
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
            DeviceMessage::RollResult(r) => {
                if !self.check_boot(r.boot, now, out) {
                    health.errors.stray_rolls += 1;
                    return;
                }
                self.peer_last_seq = self.peer_last_seq.max(r.seq);
                let delivered = self.delivered();
                if r.seq <= delivered || self.pending.contains_key(&r.seq) {
                    health.duplicates += 1;
                } else if r.seq == delivered.wrapping_add(1) {
                    self.deliver(r, now, health, out);
                    self.drain_pending(now, health, out);
                    if self.resend_at.is_some() {
                        // Progress: give the resend in flight more time.
                        self.resend_at = Some(now);
                    }
                } else {
                    if self.pending.len() < self.config.reorder_window {
                        self.pending.insert(r.seq, r);
                    }
                    self.request_resend(now, false, health, out);
                }
            }
            DeviceMessage::Heartbeat(hb) => {
                health.last_heartbeat = Some(now);
                if !self.check_boot(hb.boot, now, out) {
                    return;
                }
                self.peer_last_seq = self.peer_last_seq.max(hb.last_seq);
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
                    FaultCode::ResendUnavailable => {
                        self.skip_to(f.detail.saturating_sub(1), now, health, out);
                    }
                    FaultCode::HistoryOverflow => self.skip_to(f.detail, now, health, out),
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

    fn hello(boot: u32, last_seq: u32) -> DeviceMessage {
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
        })
    }

    fn roll(boot: u32, seq: u32) -> DeviceMessage {
        DeviceMessage::RollResult(RollResult {
            boot: BootId(boot),
            seq,
            throw: seq,
            die: 0,
            sides: 6,
            value: (seq % 6 + 1) as u8,
        })
    }

    struct Harness {
        s: Session,
        h: LinkHealth,
        now: Instant,
        delivered: Vec<(u32, u32)>,
        sent: Vec<HostMessage>,
    }

    impl Harness {
        fn new(start: StartFrom) -> Harness {
            let mut h = Harness {
                s: session(start),
                h: LinkHealth::default(),
                now: Instant::now(),
                delivered: Vec::new(),
                sent: Vec::new(),
            };
            let mut out = Outbox::default();
            h.s.connected(h.now, &mut out);
            h.collect(out);
            h
        }
        fn collect(&mut self, out: Outbox) {
            for r in out.rolls {
                let TowerRef::Framed { boot, .. } = r.device else {
                    panic!("text roll")
                };
                self.delivered.push((boot.0, r.seq));
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
    fn reset_restarts_sequence_numbers_without_false_duplicates() {
        let mut t = Harness::new(StartFrom::Held);
        t.feed(hello(7, 0));
        for s in 1..=3 {
            t.feed(roll(7, s));
        }
        // The tower resets: new boot nonce, seq restarts at 1.
        t.feed(hello(8, 0));
        t.feed(roll(8, 1));
        t.feed(roll(8, 2));
        assert_eq!(t.delivered, vec![(7, 1), (7, 2), (7, 3), (8, 1), (8, 2)]);
        assert_eq!(t.h.device_resets, 1);
        assert_eq!(t.h.duplicates, 0);
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
        t.feed(hello(8, 1));
        t.feed(roll(8, 1));
        assert_eq!(t.delivered, vec![(7, 1), (8, 1)]);
    }

    #[test]
    fn reconnect_resumes_with_resend_since_delivered() {
        let mut t = Harness::new(StartFrom::Held);
        t.feed(hello(7, 0));
        t.feed(roll(7, 1));
        t.feed(roll(7, 2));
        let mut out = Outbox::default();
        t.s.connected(t.now, &mut out);
        t.collect(out);
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
        let loss = t.h.last_loss.unwrap();
        assert_eq!((loss.first, loss.last), (2, 3));
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
}
