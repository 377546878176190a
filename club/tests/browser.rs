//! The club's pages in a real headless browser (Debian's Chromium, driven through chromedriver
//! over WebDriver): load the standings, read them, follow a player's record to a match and step
//! through its replay — with a player named `<script>…` that must render as text.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use club::testing::{DemoLog, PgCluster, TestServer, add_kiosk, free_port, init, wait_for_port};
use club_protocol::{catalogue_path, catalogue_sha256, push_path};
use serde_json::{Value, json};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

struct Driver {
    child: Child,
    base: String,
    session: String,
    agent: ureq::Agent,
    _profile: tempfile::TempDir,
}

impl Driver {
    fn start() -> Driver {
        let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
            .into_iter()
            .find(|p| std::path::Path::new(p).exists())
            .expect("Chromium (apt-get install chromium chromium-driver)");
        let port = free_port().unwrap();
        let child = Command::new("chromedriver")
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver (apt-get install chromium-driver)");
        assert!(
            wait_for_port(port, Duration::from_secs(30)),
            "chromedriver did not start"
        );
        let profile = tempfile::tempdir().unwrap();
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(60)))
            .build()
            .into();
        let base = format!("http://127.0.0.1:{port}");
        let caps = json!({"capabilities": {"alwaysMatch": {"goog:chromeOptions": {
            "binary": chromium,
            "args": ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                     "--disable-background-networking", "--disable-component-update", "--disable-sync",
                     "--window-size=800,480", format!("--user-data-dir={}", profile.path().display())]
        }}}});
        let v = post(&agent, &format!("{base}/session"), &caps);
        let session = v["value"]["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("{v}"))
            .to_owned();
        Driver {
            child,
            base,
            session,
            agent,
            _profile: profile,
        }
    }

    fn url(&self, path: &str) -> String {
        format!("{}/session/{}{path}", self.base, self.session)
    }

    fn go(&self, url: &str) {
        post(&self.agent, &self.url("/url"), &json!({ "url": url }));
    }

    fn find(&self, css: &str) -> String {
        let v = post(
            &self.agent,
            &self.url("/element"),
            &json!({"using": "css selector", "value": css}),
        );
        v["value"][ELEMENT]
            .as_str()
            .unwrap_or_else(|| panic!("no {css}: {v}"))
            .to_owned()
    }

    fn text(&self, css: &str) -> String {
        let id = self.find(css);
        get(&self.agent, &self.url(&format!("/element/{id}/text")))["value"]
            .as_str()
            .unwrap_or_default()
            .to_owned()
    }

    fn click(&self, css: &str) {
        let id = self.find(css);
        post(
            &self.agent,
            &self.url(&format!("/element/{id}/click")),
            &json!({}),
        );
    }

    fn alert_open(&self) -> bool {
        get(&self.agent, &self.url("/alert/text"))["value"]
            .get("error")
            .is_none()
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self
            .agent
            .delete(&format!("{}/session/{}", self.base, self.session))
            .call();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn post(agent: &ureq::Agent, url: &str, body: &Value) -> Value {
    let mut r = agent.post(url).send_json(body).unwrap();
    serde_json::from_str(&r.body_mut().read_to_string().unwrap()).unwrap()
}

fn get(agent: &ureq::Agent, url: &str) -> Value {
    let mut r = agent.get(url).call().unwrap();
    serde_json::from_str(&r.body_mut().read_to_string().unwrap()).unwrap()
}

#[test]
fn standings_and_a_replay_in_a_real_browser() {
    let pg = PgCluster::start().expect("a PostgreSQL cluster (apt-get install postgresql)");
    let db = pg.database("browser").unwrap();
    init(&db, "Asia/Tokyo").unwrap();
    let token = add_kiosk(&db, "table-1").unwrap();
    let server = TestServer::start(&db).unwrap();
    let demo = DemoLog::jaken().unwrap();
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into();
    let auth = format!("Bearer {token}");
    let r = agent
        .put(&format!(
            "{}{}",
            server.url,
            catalogue_path(&catalogue_sha256(demo.catalogue))
        ))
        .header("Authorization", &auth)
        .send(demo.catalogue)
        .unwrap();
    assert_eq!(r.status().as_u16(), 204);
    let evil = "<script>alert(1)</script>";
    let push = demo.push(&["Aki", evil], 0..demo.inputs.len());
    let r = agent
        .put(&format!("{}{}", server.url, push_path("table-1", 1)))
        .header("Authorization", &auth)
        .send(serde_json::to_string(&push).unwrap())
        .unwrap();
    assert_eq!(r.status().as_u16(), 200);

    let d = Driver::start();
    // Load the standings and read them: the winner (seat 1, the <script> name) first, as text.
    d.go(&format!("{}/standings?game=jaken&lang=en", server.url));
    let table = d.text("#standings");
    let lines: Vec<&str> = table.lines().collect();
    assert!(lines.len() >= 3, "{table}");
    assert!(lines[1].contains(evil), "the name shows as text: {table}");
    assert!(
        lines[1].contains("100 %") && lines[2].contains("Aki") && lines[2].contains("0 %"),
        "{table}"
    );
    assert!(!d.alert_open(), "a script ran");
    // Follow the winner to their record, and on to the match's replay.
    d.click("#standings tbody tr:first-child a");
    assert!(d.text("h1").contains(evil));
    d.click("#recent tbody tr:first-child td:first-child a");
    assert!(d.text("#step").contains("83 / 83"), "{}", d.text("#step"));
    assert!(d.text("#result").contains(evil));
    // Step through it from the start.
    d.click("a[rel=first]");
    assert!(d.text("#step").contains("0 / 83"));
    d.click("a[rel=next]");
    d.click("a[rel=next]");
    assert!(d.text("#step").contains("2 / 83"), "{}", d.text("#step"));
    assert_eq!(d.text("ol.log").lines().count(), 2);
    assert!(d.text("#trackers").contains("SB"));
    // The same page in Japanese.
    d.go(&format!("{}/matches/1?step=2&lang=ja", server.url));
    assert!(
        d.text("#step").contains("手順 2 / 83"),
        "{}",
        d.text("#step")
    );
    assert!(!d.alert_open());
    drop(d);
    server.stop();
}
