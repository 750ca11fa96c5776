//! A minimal WebDriver client over chromedriver's HTTP API (std only): a
//! session, navigation, scripts, the browser log and screenshots.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// A chromedriver process on a free local port; stopped on drop.
pub struct Driver {
    child: Child,
    port: u16,
}

impl Driver {
    pub fn start(binary: &str) -> Result<Driver, String> {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map_err(|e| format!("no free port: {e}"))?
            .port();
        let child = Command::new(binary)
            .arg(format!("--port={port}"))
            .arg("--allowed-ips=127.0.0.1")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start {binary}: {e}"))?;
        let driver = Driver { child, port };
        let deadline = Instant::now() + Duration::from_secs(20);
        while Instant::now() < deadline {
            if let Ok((200, status)) = driver.request("GET", "/status", None)
                && status["value"]["ready"] == json!(true)
            {
                return Ok(driver);
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        Err("chromedriver did not become ready in 20 s".into())
    }

    /// One HTTP/1.1 request with a JSON body; the status and the JSON answer.
    pub fn request(
        &self,
        method: &str,
        path: &str,
        body: Option<&Value>,
    ) -> Result<(u16, Value), String> {
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).map_err(|e| e.to_string())?;
        stream
            .set_read_timeout(Some(Duration::from_secs(120)))
            .map_err(|e| e.to_string())?;
        let body = body.map(Value::to_string).unwrap_or_default();
        let head = format!(
            "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            self.port,
            body.len()
        );
        stream
            .write_all(head.as_bytes())
            .and_then(|()| stream.write_all(body.as_bytes()))
            .map_err(|e| e.to_string())?;
        let mut reader = BufReader::new(stream);
        let mut status_line = String::new();
        reader
            .read_line(&mut status_line)
            .map_err(|e| e.to_string())?;
        let status: u16 = status_line
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| format!("bad status line {status_line:?}"))?;
        let mut length = None;
        loop {
            let mut line = String::new();
            reader.read_line(&mut line).map_err(|e| e.to_string())?;
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some((k, v)) = line.split_once(':')
                && k.eq_ignore_ascii_case("content-length")
            {
                length = v.trim().parse::<usize>().ok();
            }
        }
        let mut bytes = Vec::new();
        match length {
            Some(n) => {
                bytes.resize(n, 0);
                reader.read_exact(&mut bytes).map_err(|e| e.to_string())?;
            }
            None => {
                reader.read_to_end(&mut bytes).map_err(|e| e.to_string())?;
            }
        }
        let value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        Ok((status, value))
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A browser session.
pub struct Session<'a> {
    driver: &'a Driver,
    id: String,
}

impl<'a> Session<'a> {
    /// A headless Chromium with its own fresh profile, the window `width` × `height`.
    pub fn new(
        driver: &'a Driver,
        chromium: &str,
        profile: &str,
        width: u32,
        height: u32,
    ) -> Result<Session<'a>, String> {
        let args = [
            "--headless".to_string(),
            "--no-sandbox".into(),
            "--disable-gpu".into(),
            "--no-first-run".into(),
            "--disable-background-networking".into(),
            "--disable-component-update".into(),
            "--disable-sync".into(),
            "--hide-scrollbars".into(),
            format!("--user-data-dir={profile}"),
            format!("--window-size={width},{height}"),
        ];
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {"binary": chromium, "args": args},
            "goog:loggingPrefs": {"browser": "ALL"}
        }}});
        let (status, answer) = driver.request("POST", "/session", Some(&caps))?;
        let id = answer["value"]["sessionId"]
            .as_str()
            .ok_or_else(|| format!("no session ({status}): {answer}"))?
            .to_string();
        Ok(Session { driver, id })
    }

    fn call(&self, method: &str, path: &str, body: Option<&Value>) -> Result<Value, String> {
        let (status, answer) =
            self.driver
                .request(method, &format!("/session/{}{path}", self.id), body)?;
        if status != 200 {
            return Err(format!("{method} {path}: {status} {answer}"));
        }
        Ok(answer["value"].clone())
    }

    pub fn goto(&self, url: &str) -> Result<(), String> {
        self.call("POST", "/url", Some(&json!({"url": url})))
            .map(|_| ())
    }

    /// Runs `script` (a function body) and returns its value.
    pub fn run(&self, script: &str) -> Result<Value, String> {
        self.call(
            "POST",
            "/execute/sync",
            Some(&json!({"script": script, "args": []})),
        )
    }

    /// The browser console's entries since the last call.
    pub fn console(&self) -> Result<Vec<Value>, String> {
        let log = self.call("POST", "/se/log", Some(&json!({"type": "browser"})))?;
        Ok(log.as_array().cloned().unwrap_or_default())
    }

    pub fn set_window(&self, width: u32, height: u32) -> Result<(), String> {
        self.call(
            "POST",
            "/window/rect",
            Some(&json!({"width": width, "height": height})),
        )
        .map(|_| ())
    }

    /// A PNG of the viewport.
    pub fn screenshot(&self) -> Result<Vec<u8>, String> {
        let b64 = self.call("GET", "/screenshot", None)?;
        decode_base64(b64.as_str().unwrap_or_default())
    }
}

impl Drop for Session<'_> {
    fn drop(&mut self) {
        let _ = self
            .driver
            .request("DELETE", &format!("/session/{}", self.id), None);
    }
}

fn decode_base64(text: &str) -> Result<Vec<u8>, String> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let mut acc = 0u32;
    let mut bits = 0;
    for c in text
        .bytes()
        .filter(|c| !c.is_ascii_whitespace() && *c != b'=')
    {
        let v = value(c).ok_or("bad base64")?;
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    Ok(out)
}
