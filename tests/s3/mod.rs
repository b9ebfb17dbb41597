//! A real S3 API server on the loopback address for the object-store tests: moto's server
//! mode, installed (pinned) from PyPI by `tests/s3/setup.sh` into a virtualenv under
//! `target/` and started once per test binary.
//!
//! When it cannot be installed or started the tests fail saying what is missing, unless
//! `RANGEREAD_SKIP_S3=1` is set: then they print that they were skipped.
#![allow(dead_code)]

use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, OnceLock};

use object_store::aws::{AmazonS3, AmazonS3Builder};
use object_store::path::Path as ObjectPath;
use object_store::{ObjectStoreExt, PutPayload};

pub const ACCESS_KEY: &str = "testing";
pub const SECRET_KEY: &str = "testing";
pub const REGION: &str = "us-east-1";

/// The running server: its endpoint, and the process (killed when the binary exits).
pub struct Server {
    pub endpoint: String,
    child: std::sync::Mutex<Child>,
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Ok(mut c) = self.child.lock() {
            let _ = c.kill();
        }
    }
}

static SERVER: OnceLock<Option<Arc<Server>>> = OnceLock::new();

/// A Python that runs moto's server, from tests/s3/setup.sh (which installs it once).
fn python() -> String {
    static PYTHON: OnceLock<String> = OnceLock::new();
    PYTHON
        .get_or_init(|| {
            let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/s3/setup.sh");
            let out = Command::new("bash")
                .arg(script)
                .stderr(Stdio::inherit())
                .output()
                .unwrap_or_else(|e| panic!("running {script}: {e} (is bash installed?)"));
            let skip = "or set RANGEREAD_SKIP_S3=1 to skip the object-store tests";
            match out.status.code() {
                Some(0) => String::from_utf8_lossy(&out.stdout).trim().to_string(),
                Some(77) => panic!(
                    "python3 cannot create a virtualenv for moto's S3 server (Debian/Ubuntu: \
                     apt install python3-venv), {skip}"
                ),
                Some(78) => panic!(
                    "moto[server] could not be installed from PyPI (no network?); \
                     RANGEREAD_PYTHON can name a Python that has it, {skip}"
                ),
                code => panic!("{script} failed ({code:?}), {skip}"),
            }
        })
        .clone()
}

/// Starts moto's server on a free port (once), or `None` when the tests are skipped.
pub fn server() -> Option<Arc<Server>> {
    SERVER
        .get_or_init(|| {
            if std::env::var_os("RANGEREAD_SKIP_S3").is_some_and(|v| v == "1") {
                eprintln!(
                    "NOTICE: RANGEREAD_SKIP_S3=1: the object-store tests against a real S3 \
                     server are skipped"
                );
                return None;
            }
            Some(Arc::new(start(&[])))
        })
        .clone()
}

/// A second server that checks credentials (moto's IAM authentication) after the first
/// `free` requests, which set up its bucket and objects; `None` when skipped.
pub fn server_checking_credentials(free: u32) -> Option<Server> {
    server()?;
    Some(start(&[(
        "INITIAL_NO_AUTH_ACTION_COUNT",
        &free.to_string(),
    )]))
}

fn start(env: &[(&str, &str)]) -> Server {
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let install = "the object-store tests need a real S3 API server: install moto's server \
                   mode with `python3 -m pip install 'moto[server]'` (or set RANGEREAD_PYTHON \
                   to a Python that has it), or set RANGEREAD_SKIP_S3=1 to skip them";
    let mut moto = Command::new(python());
    moto.args([
        "-m",
        "moto.server",
        "-H",
        "127.0.0.1",
        "-p",
        &port.to_string(),
    ])
    .envs(env.iter().copied());
    // Ends with this test binary, also when kept in the static (never dropped).
    let mut child = crate::common::spawn_tied(&moto)
        .unwrap_or_else(|e| panic!("{install} (starting {} failed: {e})", python()));
    if let Err(e) = crate::common::await_listening(&mut child, port, "moto.server") {
        panic!("{install} ({e})");
    }
    Server {
        endpoint: format!("http://127.0.0.1:{port}"),
        child: std::sync::Mutex::new(child),
    }
}

impl Server {
    /// A store for `bucket` with the test credentials.
    pub fn store(&self, bucket: &str) -> AmazonS3 {
        self.store_with(bucket, ACCESS_KEY, SECRET_KEY)
    }

    pub fn store_with(&self, bucket: &str, key: &str, secret: &str) -> AmazonS3 {
        AmazonS3Builder::new()
            .with_endpoint(&self.endpoint)
            .with_allow_http(true)
            .with_bucket_name(bucket)
            .with_region(REGION)
            .with_access_key_id(key)
            .with_secret_access_key(secret)
            .with_virtual_hosted_style_request(false)
            .build()
            .unwrap()
    }

    /// Creates `bucket` (fine if it exists): moto accepts an unsigned CreateBucket, sent
    /// here as one plain HTTP request.
    pub fn bucket(&self, bucket: &str) {
        use std::io::{Read, Write};
        let addr = self.endpoint.trim_start_matches("http://");
        let mut conn = TcpStream::connect(addr).unwrap();
        write!(
            conn,
            "PUT /{bucket} HTTP/1.1\r\nHost: {addr}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut reply = String::new();
        let _ = conn.read_to_string(&mut reply);
        let status = reply.split(' ').nth(1).unwrap_or("");
        assert!(
            status == "200" || status == "409",
            "creating bucket {bucket}: {}",
            reply.lines().next().unwrap_or("")
        );
    }

    /// Puts `bytes` at `key` of `bucket` readable by anyone (ACL `public-read`), as a
    /// site serves files to plain HTTP clients: one unsigned HTTP request, which moto
    /// accepts.
    pub fn put_public(&self, bucket: &str, key: &str, bytes: &[u8]) {
        use std::io::{Read, Write};
        let addr = self.endpoint.trim_start_matches("http://");
        let mut conn = TcpStream::connect(addr).unwrap();
        write!(
            conn,
            "PUT /{bucket}/{key} HTTP/1.1\r\nHost: {addr}\r\nx-amz-acl: public-read\r\n\
             Content-Length: {}\r\nConnection: close\r\n\r\n",
            bytes.len()
        )
        .unwrap();
        conn.write_all(bytes).unwrap();
        let mut reply = String::new();
        let _ = conn.read_to_string(&mut reply);
        let status = reply.split(' ').nth(1).unwrap_or("");
        assert_eq!(
            status,
            "200",
            "putting {bucket}/{key}: {}",
            reply.lines().next().unwrap_or("")
        );
    }

    /// Puts `bytes` at `key` of `bucket`.
    pub fn put(&self, bucket: &str, key: &str, bytes: Vec<u8>) {
        let store = self.store(bucket);
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(store.put(&ObjectPath::from(key), PutPayload::from(bytes)))
            .unwrap();
    }
}

/// A real text of about `size` bytes: the real source files of tests/data/real, repeated
/// (each copy headed by a line naming its number, so that lines differ).
pub fn real_text(size: usize) -> Vec<u8> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/real");
    let parts: Vec<Vec<u8>> = ["bstr_utf8.rs", "shlex.py"]
        .iter()
        .map(|f| std::fs::read(dir.join(f)).unwrap())
        .collect();
    let mut out = Vec::with_capacity(size + 200_000);
    let mut copy = 0;
    while out.len() < size {
        copy += 1;
        out.extend_from_slice(format!("// copy {copy}\n").as_bytes());
        out.extend_from_slice(&parts[copy % 2]);
        if out.last() != Some(&b'\n') {
            out.push(b'\n');
        }
    }
    out
}
