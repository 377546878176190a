//! The GPIO panel of a Raspberry Pi kiosk: a few buttons (next step, confirm, undo, roll the
//! virtual dice) with debounce, and status LEDs (dice tower linked, camera tracking, a move
//! refused).
//!
//! The logic is pure and runs on any [`Pins`] backend: [`FakePins`] in tests, the Pi's GPIO
//! through `rppal` with the `gpio` cargo feature ([`open_pi`]). Off a Pi, or without the feature,
//! [`open_pi`] says so and the app goes on without the panel; the buttons can then still be wired
//! with the kernel's `gpio-key` overlay, which turns them into key presses the app understands.
//!
//! ```
//! use hardware::gpio::{Button, FakePins, GpioConfig, Leds, Panel, Status};
//! use std::time::Duration;
//!
//! let config = GpioConfig::default();
//! let pins = FakePins::default();
//! let mut panel = Panel::new(config.clone(), pins.clone()).unwrap();
//! // The "next" button (BCM 17, active low) is pressed and held past the debounce time.
//! pins.set_input(config.buttons.next, false);
//! assert_eq!(panel.poll(Duration::from_millis(0)).unwrap(), vec![]);
//! assert_eq!(panel.poll(Duration::from_millis(40)).unwrap(), vec![Button::Next]);
//! // Held: no repeat.
//! assert_eq!(panel.poll(Duration::from_millis(500)).unwrap(), vec![]);
//!
//! // A refused move lights its LED for a while.
//! panel.show(&Status { tower_linked: true, camera_tracking: false, refused_at: Some(Duration::from_millis(500)) }, Duration::from_millis(600)).unwrap();
//! assert_eq!(pins.output(config.leds.refused), Some(true));
//! assert_eq!(pins.output(config.leds.tower), Some(true));
//! assert_eq!(pins.output(config.leds.camera), Some(false));
//! # let _ = Leds::default();
//! ```

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// A button of the panel and the app action it stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Button {
    /// The primary next action (the same as the Space key).
    Next,
    /// Confirm a dialog or an uncertain sighting (Y / Enter).
    Confirm,
    /// Undo the last entry (U).
    Undo,
    /// Roll the virtual dice for the open prompt (R).
    Roll,
}

impl Button {
    /// Every button, in a stable order.
    pub const ALL: [Button; 4] = [Button::Next, Button::Confirm, Button::Undo, Button::Roll];

    /// The key the app maps this button to (what a `gpio-key` overlay should send).
    pub fn key(self) -> &'static str {
        match self {
            Button::Next => "Space",
            Button::Confirm => "Y",
            Button::Undo => "U",
            Button::Roll => "R",
        }
    }
}

/// BCM pin numbers of the buttons.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Buttons {
    /// Next step.
    pub next: u8,
    /// Confirm.
    pub confirm: u8,
    /// Undo.
    pub undo: u8,
    /// Roll virtual dice.
    pub roll: u8,
}

impl Default for Buttons {
    fn default() -> Buttons {
        Buttons {
            next: 17,
            confirm: 27,
            undo: 22,
            roll: 23,
        }
    }
}

impl Buttons {
    fn pins(&self) -> [(Button, u8); 4] {
        [
            (Button::Next, self.next),
            (Button::Confirm, self.confirm),
            (Button::Undo, self.undo),
            (Button::Roll, self.roll),
        ]
    }
}

/// BCM pin numbers of the status LEDs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Leds {
    /// Lit while the dice tower is linked.
    pub tower: u8,
    /// Lit while the camera is tracking the mat.
    pub camera: u8,
    /// Lit for a while after a move was refused.
    pub refused: u8,
}

impl Default for Leds {
    fn default() -> Leds {
        Leds {
            tower: 5,
            camera: 6,
            refused: 13,
        }
    }
}

/// The panel's settings (the `[gpio]` table of the config file).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct GpioConfig {
    /// Use the panel at all.
    pub enabled: bool,
    /// Button pins.
    pub buttons: Buttons,
    /// LED pins.
    pub leds: Leds,
    /// A level must hold this long to count (contact bounce lasts a few ms).
    pub debounce_ms: u64,
    /// Buttons pull the pin to ground when pressed (internal pull-ups on).
    pub active_low: bool,
    /// How long the "refused" LED stays lit after a refusal.
    pub refused_ms: u64,
}

impl Default for GpioConfig {
    fn default() -> GpioConfig {
        GpioConfig {
            enabled: false,
            buttons: Buttons::default(),
            leds: Leds::default(),
            debounce_ms: 30,
            active_low: true,
            refused_ms: 3000,
        }
    }
}

/// Why the panel cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GpioError {
    /// This build has no GPIO support.
    #[error(
        "this build of Tableside has no GPIO support (build with `--features gpio` on the Pi); \
         buttons wired with the gpio-key overlay still work as keys"
    )]
    NotBuilt,
    /// No GPIO on this machine (not a Raspberry Pi, or no access to /dev/gpiomem).
    #[error("no GPIO on this machine: {0}")]
    NotPresent(String),
    /// Two functions on one pin, or a pin that does not exist.
    #[error("GPIO pin {pin} is used for both {first} and {second}")]
    PinTwice {
        /// The pin.
        pin: u8,
        /// Its first use.
        first: String,
        /// Its second use.
        second: String,
    },
    /// A pin number outside the Pi's BCM 0–27.
    #[error("GPIO pin {pin} ({what}) does not exist on a Raspberry Pi header (BCM 0–27)")]
    NoSuchPin {
        /// The pin.
        pin: u8,
        /// What it was meant for.
        what: String,
    },
    /// A read or write failed.
    #[error("GPIO pin {pin}: {message}")]
    Io {
        /// The pin.
        pin: u8,
        /// What failed.
        message: String,
    },
}

impl GpioConfig {
    /// Checks that every pin exists and is used once.
    pub fn check(&self) -> Result<(), GpioError> {
        let mut used: BTreeMap<u8, String> = BTreeMap::new();
        let leds = [
            ("tower LED", self.leds.tower),
            ("camera LED", self.leds.camera),
            ("refused LED", self.leds.refused),
        ];
        let buttons = self
            .buttons
            .pins()
            .map(|(b, pin)| (format!("{b:?} button").to_lowercase(), pin));
        for (what, pin) in leds
            .iter()
            .map(|(w, p)| ((*w).to_owned(), *p))
            .chain(buttons)
        {
            if pin > 27 {
                return Err(GpioError::NoSuchPin { pin, what });
            }
            if let Some(first) = used.insert(pin, what.clone()) {
                return Err(GpioError::PinTwice {
                    pin,
                    first,
                    second: what,
                });
            }
        }
        Ok(())
    }
}

/// What the pins are: read inputs (with pull-ups as configured), drive outputs.
pub trait Pins: Send {
    /// Makes `pin` an input (with a pull-up when `pull_up`).
    fn setup_input(&mut self, pin: u8, pull_up: bool) -> Result<(), GpioError>;
    /// Makes `pin` an output, initially low.
    fn setup_output(&mut self, pin: u8) -> Result<(), GpioError>;
    /// Reads an input: `true` for high.
    fn read(&mut self, pin: u8) -> Result<bool, GpioError>;
    /// Drives an output.
    fn write(&mut self, pin: u8, high: bool) -> Result<(), GpioError>;
}

#[derive(Debug, Default)]
struct FakeState {
    inputs: BTreeMap<u8, bool>,
    outputs: BTreeMap<u8, bool>,
}

/// A software stand-in for the pins: tests set input levels and read what the LEDs show. Clones
/// share the same pins.
#[derive(Clone, Debug, Default)]
pub struct FakePins(Arc<Mutex<FakeState>>);

impl FakePins {
    /// Sets an input's level (`false`: pulled to ground, i.e. pressed when active low).
    pub fn set_input(&self, pin: u8, high: bool) {
        if let Ok(mut s) = self.0.lock() {
            s.inputs.insert(pin, high);
        }
    }

    /// An output's level, `None` if it was never set up.
    pub fn output(&self, pin: u8) -> Option<bool> {
        self.0
            .lock()
            .ok()
            .and_then(|s| s.outputs.get(&pin).copied())
    }
}

impl Pins for FakePins {
    fn setup_input(&mut self, pin: u8, pull_up: bool) -> Result<(), GpioError> {
        if let Ok(mut s) = self.0.lock() {
            s.inputs.entry(pin).or_insert(pull_up);
        }
        Ok(())
    }

    fn setup_output(&mut self, pin: u8) -> Result<(), GpioError> {
        if let Ok(mut s) = self.0.lock() {
            s.outputs.insert(pin, false);
        }
        Ok(())
    }

    fn read(&mut self, pin: u8) -> Result<bool, GpioError> {
        self.0
            .lock()
            .ok()
            .and_then(|s| s.inputs.get(&pin).copied())
            .ok_or(GpioError::Io {
                pin,
                message: "not set up as an input".into(),
            })
    }

    fn write(&mut self, pin: u8, high: bool) -> Result<(), GpioError> {
        let mut s = self.0.lock().map_err(|_| GpioError::Io {
            pin,
            message: "fake pins poisoned".into(),
        })?;
        match s.outputs.get_mut(&pin) {
            Some(level) => {
                *level = high;
                Ok(())
            }
            None => Err(GpioError::Io {
                pin,
                message: "not set up as an output".into(),
            }),
        }
    }
}

/// One button's debounce: a new level counts once it has held for the debounce time; a press is
/// reported on the debounced change to "pressed", once per press.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Debounce {
    stable: bool,
    candidate: bool,
    since: Duration,
    hold: Duration,
}

impl Debounce {
    /// A released button with this debounce time.
    pub fn new(hold: Duration) -> Debounce {
        Debounce {
            stable: false,
            candidate: false,
            since: Duration::ZERO,
            hold,
        }
    }

    /// Feeds the raw "pressed" reading at time `now`; `true` when this is a new press.
    pub fn update(&mut self, now: Duration, pressed: bool) -> bool {
        if pressed != self.candidate {
            self.candidate = pressed;
            self.since = now;
        }
        if self.candidate != self.stable && now.saturating_sub(self.since) >= self.hold {
            self.stable = self.candidate;
            return self.stable;
        }
        false
    }

    /// The debounced state.
    pub fn pressed(&self) -> bool {
        self.stable
    }
}

/// What the LEDs show.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Status {
    /// The dice tower is linked.
    pub tower_linked: bool,
    /// The camera is tracking the mat.
    pub camera_tracking: bool,
    /// When the last move was refused (on the panel's clock), if ever.
    pub refused_at: Option<Duration>,
}

/// The panel: buttons polled with debounce, LEDs driven from a [`Status`].
pub struct Panel<P: Pins> {
    config: GpioConfig,
    pins: P,
    debounce: Vec<(Button, u8, Debounce)>,
}

impl<P: Pins> Panel<P> {
    /// Sets the pins up (buttons as inputs with pull-ups when active low, LEDs as outputs, off).
    pub fn new(config: GpioConfig, mut pins: P) -> Result<Panel<P>, GpioError> {
        config.check()?;
        let hold = Duration::from_millis(config.debounce_ms);
        let mut debounce = Vec::new();
        for (button, pin) in config.buttons.pins() {
            pins.setup_input(pin, config.active_low)?;
            debounce.push((button, pin, Debounce::new(hold)));
        }
        for pin in [config.leds.tower, config.leds.camera, config.leds.refused] {
            pins.setup_output(pin)?;
        }
        Ok(Panel {
            config,
            pins,
            debounce,
        })
    }

    /// Reads every button at time `now` (the caller's monotonic clock) and returns the new
    /// presses, in [`Button::ALL`] order.
    pub fn poll(&mut self, now: Duration) -> Result<Vec<Button>, GpioError> {
        let mut presses = Vec::new();
        for (button, pin, debounce) in &mut self.debounce {
            let high = self.pins.read(*pin)?;
            let pressed = high != self.config.active_low;
            if debounce.update(now, pressed) {
                presses.push(*button);
            }
        }
        Ok(presses)
    }

    /// Drives the LEDs for `status` at time `now`.
    pub fn show(&mut self, status: &Status, now: Duration) -> Result<(), GpioError> {
        let refused = status.refused_at.is_some_and(|at| {
            now >= at && now.saturating_sub(at) < Duration::from_millis(self.config.refused_ms)
        });
        self.pins
            .write(self.config.leds.tower, status.tower_linked)?;
        self.pins
            .write(self.config.leds.camera, status.camera_tracking)?;
        self.pins.write(self.config.leds.refused, refused)
    }

    /// Turns every LED off (on exit).
    pub fn off(&mut self) -> Result<(), GpioError> {
        self.show(&Status::default(), Duration::ZERO)
    }
}

/// The Pi's GPIO through `rppal`.
#[cfg(feature = "gpio")]
pub struct PiPins {
    gpio: rppal::gpio::Gpio,
    inputs: BTreeMap<u8, rppal::gpio::InputPin>,
    outputs: BTreeMap<u8, rppal::gpio::OutputPin>,
}

#[cfg(feature = "gpio")]
impl Pins for PiPins {
    fn setup_input(&mut self, pin: u8, pull_up: bool) -> Result<(), GpioError> {
        let p = self.gpio.get(pin).map_err(|e| GpioError::Io {
            pin,
            message: e.to_string(),
        })?;
        let input = if pull_up {
            p.into_input_pullup()
        } else {
            p.into_input_pulldown()
        };
        self.inputs.insert(pin, input);
        Ok(())
    }

    fn setup_output(&mut self, pin: u8) -> Result<(), GpioError> {
        let p = self.gpio.get(pin).map_err(|e| GpioError::Io {
            pin,
            message: e.to_string(),
        })?;
        self.outputs.insert(pin, p.into_output_low());
        Ok(())
    }

    fn read(&mut self, pin: u8) -> Result<bool, GpioError> {
        self.inputs
            .get(&pin)
            .map(rppal::gpio::InputPin::is_high)
            .ok_or(GpioError::Io {
                pin,
                message: "not set up as an input".into(),
            })
    }

    fn write(&mut self, pin: u8, high: bool) -> Result<(), GpioError> {
        let out = self.outputs.get_mut(&pin).ok_or(GpioError::Io {
            pin,
            message: "not set up as an output".into(),
        })?;
        if high {
            out.set_high();
        } else {
            out.set_low();
        }
        Ok(())
    }
}

/// Opens the Pi's GPIO (`gpio` feature): an error naming why when there is none.
#[cfg(feature = "gpio")]
pub fn open_pi(config: GpioConfig) -> Result<Panel<PiPins>, GpioError> {
    let gpio = rppal::gpio::Gpio::new().map_err(|e| GpioError::NotPresent(e.to_string()))?;
    Panel::new(
        config,
        PiPins {
            gpio,
            inputs: BTreeMap::new(),
            outputs: BTreeMap::new(),
        },
    )
}

/// Without the `gpio` feature there is no Pi backend: says how to get one.
#[cfg(not(feature = "gpio"))]
pub fn open_pi(config: GpioConfig) -> Result<Panel<FakePins>, GpioError> {
    let _ = config;
    Err(GpioError::NotBuilt)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn contact_bounce_gives_one_press() {
        // Given a 30 ms debounce
        let mut d = Debounce::new(ms(30));
        // When the contact bounces for 10 ms, then holds
        let mut presses = 0;
        for (t, level) in [(0, true), (2, false), (4, true), (7, false), (10, true)] {
            presses += usize::from(d.update(ms(t), level));
        }
        for t in (12..200).step_by(5) {
            presses += usize::from(d.update(ms(t), true));
        }
        // Then exactly one press is reported, 30 ms after the last bounce
        assert_eq!(presses, 1);
        assert!(d.pressed());
        // And a release then a new press count again
        for t in (200..260).step_by(5) {
            d.update(ms(t), false);
        }
        assert!(!d.pressed());
        let mut again = 0;
        for t in (260..320).step_by(5) {
            again += usize::from(d.update(ms(t), true));
        }
        assert_eq!(again, 1);
    }

    #[test]
    fn a_blip_shorter_than_the_debounce_is_ignored() {
        let mut d = Debounce::new(ms(30));
        assert!(!d.update(ms(0), true));
        assert!(!d.update(ms(20), false));
        for t in (25..200).step_by(5) {
            assert!(!d.update(ms(t), false));
        }
    }

    #[test]
    fn each_button_maps_to_its_action_and_active_high_works_too() {
        let pins = FakePins::default();
        let config = GpioConfig {
            active_low: false,
            ..GpioConfig::default()
        };
        let mut panel = Panel::new(config.clone(), pins.clone()).unwrap();
        assert_eq!(panel.poll(ms(0)).unwrap(), vec![]);
        pins.set_input(config.buttons.undo, true);
        pins.set_input(config.buttons.roll, true);
        panel.poll(ms(1)).unwrap();
        assert_eq!(
            panel.poll(ms(40)).unwrap(),
            vec![Button::Undo, Button::Roll]
        );
    }

    #[test]
    fn the_refused_led_goes_out_after_its_time_and_leds_follow_status() {
        let pins = FakePins::default();
        let config = GpioConfig::default();
        let mut panel = Panel::new(config.clone(), pins.clone()).unwrap();
        let status = Status {
            tower_linked: false,
            camera_tracking: true,
            refused_at: Some(ms(1000)),
        };
        panel.show(&status, ms(1000)).unwrap();
        assert_eq!(pins.output(config.leds.refused), Some(true));
        assert_eq!(pins.output(config.leds.camera), Some(true));
        assert_eq!(pins.output(config.leds.tower), Some(false));
        panel.show(&status, ms(3999)).unwrap();
        assert_eq!(pins.output(config.leds.refused), Some(true));
        panel.show(&status, ms(4000)).unwrap();
        assert_eq!(pins.output(config.leds.refused), Some(false));
        panel.off().unwrap();
        assert_eq!(pins.output(config.leds.camera), Some(false));
    }

    #[test]
    fn a_pin_used_twice_or_missing_is_refused() {
        let mut config = GpioConfig::default();
        config.leds.refused = config.buttons.next;
        assert!(matches!(
            config.check(),
            Err(GpioError::PinTwice { pin: 17, .. })
        ));
        let mut config = GpioConfig::default();
        config.buttons.roll = 40;
        let err = Panel::new(config, FakePins::default()).err().unwrap();
        assert!(err.to_string().contains("40"), "{err}");
    }

    #[cfg(not(feature = "gpio"))]
    #[test]
    fn without_the_feature_the_app_is_told_how_to_get_gpio() {
        let err = open_pi(GpioConfig::default()).err().unwrap();
        assert_eq!(err, GpioError::NotBuilt);
        assert!(err.to_string().contains("--features gpio"));
    }
}
