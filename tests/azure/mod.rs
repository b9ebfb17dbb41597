//! Microsoft's Azure Storage emulator (Azurite, the blob service) on the loopback address
//! for the `az://` tests, installed (pinned) by `tests/azure/setup.sh` under `target/` and
//! started once per test binary; blobs are put with Microsoft's Python SDK
//! (`tests/azure/put.py`), never with the client under test.
//!
//! When it cannot be installed or started the tests fail saying what is missing, unless
//! `RANGEREAD_SKIP_AZURE=1` is set: then they print that they were skipped.
#![allow(dead_code)]

use std::process::{Child, Command, Stdio};
use std::sync::{Mutex, OnceLock};

/// The running emulator: its blob endpoint, the Python that puts blobs, the process.
pub struct Azurite {
    pub endpoint: String,
    python: String,
    child: Mutex<Child>,
    _data: tempfile::TempDir,
}

impl Drop for Azurite {
    fn drop(&mut self) {
        if let Ok(mut c) = self.child.lock() {
            let _ = c.kill();
        }
    }
}

const SKIP: &str = "or set RANGEREAD_SKIP_AZURE=1 to skip the Azure tests";

/// Starts Azurite (once), or `None` when the tests are skipped.
pub fn azurite() -> Option<&'static Azurite> {
    static AZURITE: OnceLock<Option<Azurite>> = OnceLock::new();
    AZURITE
        .get_or_init(|| {
            if std::env::var_os("RANGEREAD_SKIP_AZURE").is_some_and(|v| v == "1") {
                eprintln!(
                    "NOTICE: RANGEREAD_SKIP_AZURE=1: the az:// tests against Azurite are skipped"
                );
                return None;
            }
            Some(start())
        })
        .as_ref()
}

fn start() -> Azurite {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/azure/setup.sh");
    let out = Command::new("bash")
        .arg(script)
        .stderr(Stdio::inherit())
        .output()
        .unwrap_or_else(|e| panic!("running {script}: {e} (is bash installed?)"));
    let paths = String::from_utf8_lossy(&out.stdout).to_string();
    match out.status.code() {
        Some(0) => {}
        Some(77) => panic!(
            "python3 cannot create a virtualenv for Microsoft's blob SDK (Debian/Ubuntu: apt \
             install python3-venv), {SKIP}"
        ),
        Some(78) => panic!("azure-storage-blob could not be installed from PyPI, {SKIP}"),
        Some(79) => panic!(
            "Azurite could not be installed from npm (needs Node.js and npm, and the npm \
             registry), {SKIP}"
        ),
        code => panic!("{script} failed ({code:?}), {SKIP}"),
    }
    let mut lines = paths.lines();
    let (bin, python) = (lines.next().unwrap(), lines.next().unwrap());
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let data = tempfile::tempdir().unwrap();
    let mut azurite = Command::new(bin);
    azurite
        .args(["--blobHost", "127.0.0.1", "--blobPort", &port.to_string()])
        .arg("--location")
        .arg(data.path())
        .args(["--silent", "--skipApiVersionCheck", "--disableTelemetry"]);
    // Ends with this test binary (the value lives in a static, never dropped).
    let mut child = crate::common::spawn_tied(&azurite)
        .unwrap_or_else(|e| panic!("starting {bin}: {e}, {SKIP}"));
    if let Err(e) = crate::common::await_listening(&mut child, port, "azurite-blob") {
        panic!("{e}, {SKIP}");
    }
    Azurite {
        endpoint: format!("http://127.0.0.1:{port}"),
        python: python.to_string(),
        child: Mutex::new(child),
        _data: data,
    }
}

impl Azurite {
    /// Puts `bytes` as blob `name` of `container` (created when missing).
    pub fn put(&self, container: &str, name: &str, bytes: &[u8]) {
        let file = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(file.path(), bytes).unwrap();
        let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/azure/put.py");
        let out = Command::new(&self.python)
            .args([script, &self.endpoint, container, name])
            .arg(file.path())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "putting {container}/{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// The environment a process needs to read `az://` URLs from this emulator with
    /// object_store's own emulator settings (account and key: Azurite's well-known ones).
    pub fn env(&self) -> [(&'static str, &str); 2] {
        [
            ("AZURE_STORAGE_USE_EMULATOR", "true"),
            ("AZURITE_BLOB_STORAGE_URL", &self.endpoint),
        ]
    }
}
