//! The server's stdio transport: rmcp's own for reading (its line limit, its
//! compatibility rules, its answers to malformed requests), and a writer of our own that
//! serializes each message once into a buffer kept from call to call and writes it
//! whole.
//!
//! rmcp's writer encodes through a `BytesMut` codec: each fragment of the JSON escaping
//! goes through `put_slice`, and the buffer was grown again for large answers. A `Vec`
//! that keeps its capacity (up to [`KEEP_BYTES`]) takes the same fragments as plain
//! copies: a whole 1 MiB read went from 19.0 to 18.1 M instructions (callgrind), and
//! with the wider pipe of [`widen_stdout_pipe`] from 7.4-11.2 to 6.5-6.9 ms a call.
//!
//! An answer whose text is large ([`STREAM_FROM`]) is written as it is escaped, a
//! [`PIECE`] at a time, so that the client starts reading while the rest is escaped: the
//! whole message is serialized with a marker in the text's place, and the text's escaped
//! pieces go out between the bytes before and after the marker. The bytes written are
//! the same as for the message serialized whole (a unit test compares them).

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::io;
use std::pin::Pin;
use std::sync::{Arc, Mutex as SyncMutex};
use std::task::{Context, Poll};

use rangeread::BufferPool;
use rmcp::model::{ContentBlock, JsonRpcMessage, JsonRpcResponse, ServerResult};
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::async_rw::AsyncRwTransport;
use rmcp::transport::{StdioReader, StdioWriter, Transport};
use rmcp::RoleServer;
use tokio::io::{AsyncWrite, AsyncWriteExt};
use tokio::sync::Mutex;

/// The largest answer buffer kept for the next message; a larger one is freed after it
/// is written (memory stays flat over any number of calls).
pub const KEEP_BYTES: usize = 4 << 20;

/// An answer text this long is written as it is escaped. Below it the whole message is
/// one write: escaping it takes less than the client's wake-up.
pub const STREAM_FROM: usize = 128 << 10;

/// The text escaped and written at a time: what the Python SDK's reader takes per read.
pub const PIECE: usize = 64 << 10;

/// Standard output and the buffer messages are serialized into.
struct Out {
    writer: StdioWriter,
    buf: Vec<u8>,
    /// Bytes rmcp's reader wrote (its answer to a malformed request), written out
    /// before the next message.
    queued: Arc<SyncMutex<Vec<u8>>>,
    /// Where the text of a written answer goes for the next read.
    buffers: Arc<BufferPool>,
    /// What stands in a large text's place while the message around it is serialized
    /// (unique to this process), and its JSON form.
    marker: Marker,
    /// One escaped piece of a large text.
    piece: Vec<u8>,
}

impl Out {
    async fn write_queued(&mut self) -> io::Result<()> {
        let queued = std::mem::take(&mut *self.queued.lock().unwrap_or_else(|e| e.into_inner()));
        if !queued.is_empty() {
            self.writer.write_all(&queued).await?;
            self.writer.flush().await?;
        }
        Ok(())
    }
}

/// The transport: see the module documentation.
pub struct Stdio {
    read: AsyncRwTransport<RoleServer, StdioReader, Queue>,
    out: Arc<Mutex<Out>>,
}

impl Stdio {
    /// Standard input and output, through rmcp's non-blocking pipes when both are pipes.
    /// Text content of each answer is handed back to `buffers` once it is written.
    pub fn new(buffers: Arc<BufferPool>) -> Stdio {
        widen_stdout_pipe();
        let (reader, writer) = rmcp::transport::stdio_pipes();
        let queued = Arc::new(SyncMutex::new(Vec::new()));
        let out = Arc::new(Mutex::new(Out {
            writer,
            buf: Vec::new(),
            queued: queued.clone(),
            buffers,
            marker: Marker::new(),
            piece: Vec::new(),
        }));
        let queue = Queue {
            queued,
            out: out.clone(),
        };
        Stdio {
            read: AsyncRwTransport::new(reader, queue),
            out,
        }
    }
}

impl Transport<RoleServer> for Stdio {
    type Error = io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl std::future::Future<Output = Result<(), io::Error>> + Send + 'static {
        let out = self.out.clone();
        async move {
            let mut guard = out.lock().await;
            let out = &mut *guard;
            out.write_queued().await?;
            let mut item = item;
            let result = write_message(
                &mut out.writer,
                &mut out.buf,
                &mut out.piece,
                &out.marker,
                &mut item,
            )
            .await;
            if out.buf.capacity() > KEEP_BYTES {
                out.buf = Vec::new();
            }
            if out.piece.capacity() > KEEP_BYTES {
                out.piece = Vec::new();
            }
            give_back_text(item, &out.buffers);
            result
        }
    }

    fn receive(
        &mut self,
    ) -> impl std::future::Future<Output = Option<RxJsonRpcMessage<RoleServer>>> + Send {
        self.read.receive()
    }

    async fn close(&mut self) -> Result<(), io::Error> {
        self.read.close().await?;
        let mut out = self.out.lock().await;
        out.write_queued().await?;
        out.writer.shutdown().await
    }
}

/// The marker a large text is replaced with while its message is serialized.
struct Marker {
    text: String,
    /// `text` as JSON, quotes included.
    json: Vec<u8>,
}

impl Marker {
    fn new() -> Marker {
        // A NUL is escaped in JSON (`\u0000`) and a random number is this process's own:
        // no path or value of an answer holds it by chance.
        let nonce = RandomState::new().build_hasher().finish();
        let text = format!("\u{0}rangeread-text-{nonce:016x}\u{0}");
        let json = serde_json::to_vec(&text).unwrap_or_default();
        Marker { text, json }
    }
}

/// Writes `item` as one line: serialized into `buf` and written whole, or, when its text
/// is large, serialized with the marker in the text's place and written with the text
/// escaped a piece at a time in between (the same bytes).
async fn write_message<W: AsyncWrite + Unpin>(
    writer: &mut W,
    buf: &mut Vec<u8>,
    piece: &mut Vec<u8>,
    marker: &Marker,
    item: &mut TxJsonRpcMessage<RoleServer>,
) -> io::Result<()> {
    buf.clear();
    if let Some(text) = large_text(item) {
        let text = std::mem::replace(text, marker.text.clone());
        let serialized = serde_json::to_writer(&mut *buf, &*item);
        let at = serialized.ok().and_then(|()| find_once(buf, &marker.json));
        if let Some(at) = at {
            buf.push(b'\n');
            let after = &buf[at + marker.json.len()..];
            let result = write_pieces(writer, piece, &buf[..at], &text, after).await;
            put_back(item, text, marker);
            return result;
        }
        // The marker is not once where only the text can be (a value of the answer
        // would have to hold this process's random marker): written whole.
        put_back(item, text, marker);
        buf.clear();
    }
    serde_json::to_writer(&mut *buf, &*item).map_err(io::Error::other)?;
    buf.push(b'\n');
    writer.write_all(buf).await?;
    writer.flush().await
}

/// The text of a tool answer's only large text block, to be written as it is escaped.
fn large_text(item: &mut TxJsonRpcMessage<RoleServer>) -> Option<&mut String> {
    let mut large = texts(item).filter(|text| text.len() >= STREAM_FROM);
    let first = large.next();
    // Two large blocks: serialized whole (no answer has two today).
    if large.next().is_some() {
        return None;
    }
    first
}

/// Puts a large text back in the place of the marker.
fn put_back(item: &mut TxJsonRpcMessage<RoleServer>, text: String, marker: &Marker) {
    if let Some(place) = texts(item).find(|t| **t == marker.text) {
        *place = text;
    }
}

/// The texts of the text blocks of a tool answer (none for any other message).
fn texts(item: &mut TxJsonRpcMessage<RoleServer>) -> impl Iterator<Item = &mut String> {
    let content: &mut [ContentBlock] = match item {
        JsonRpcMessage::Response(JsonRpcResponse {
            result: ServerResult::CallToolResult(result),
            ..
        }) => &mut result.content,
        _ => &mut [],
    };
    content.iter_mut().filter_map(|block| match block {
        ContentBlock::Text(t) => Some(&mut t.text),
        _ => None,
    })
}

/// Where `needle` occurs in `haystack`, when it occurs exactly once.
fn find_once(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    let mut at = haystack
        .windows(needle.len())
        .enumerate()
        .filter_map(|(i, w)| (w == needle).then_some(i));
    let first = at.next()?;
    at.next().is_none().then_some(first)
}

/// Writes `before`, `text` as the contents of a JSON string, and `after`: each
/// [`PIECE`] of the text escaped into `piece` and written before the next is escaped.
/// `before` ends where the string's opening quote goes and `after` starts after its
/// closing quote.
async fn write_pieces<W: AsyncWrite + Unpin>(
    writer: &mut W,
    piece: &mut Vec<u8>,
    before: &[u8],
    text: &str,
    after: &[u8],
) -> io::Result<()> {
    let mut rest = text;
    let mut first = true;
    loop {
        let mut end = rest.len().min(PIECE);
        while !rest.is_char_boundary(end) {
            end -= 1;
        }
        piece.clear();
        if first {
            piece.extend_from_slice(before);
        }
        // A piece is escaped as the whole text would be (escaping is per character),
        // in serde_json's bytes (a unit test compares them); its quotes are kept only at
        // the string's two ends.
        let start = usize::from(!first);
        json_escape_simd::escape_into(&rest[..end], piece);
        rest = &rest[end..];
        let last = rest.is_empty();
        if last {
            piece.extend_from_slice(after);
        } else {
            piece.pop();
        }
        writer.write_all(&piece[start..]).await?;
        first = false;
        if last {
            break;
        }
    }
    writer.flush().await
}

/// Hands the text blocks of a written tool answer to the pool that the next read fills
/// (the pool keeps only what is worth keeping).
fn give_back_text(mut item: TxJsonRpcMessage<RoleServer>, buffers: &BufferPool) {
    for text in texts(&mut item) {
        buffers.give(std::mem::take(text));
    }
}

/// The writer rmcp's reader answers malformed requests through: it queues the bytes, and
/// a flush hands them to standard output behind any message being written.
struct Queue {
    queued: Arc<SyncMutex<Vec<u8>>>,
    out: Arc<Mutex<Out>>,
}

impl AsyncWrite for Queue {
    fn poll_write(
        self: Pin<&mut Self>,
        _: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        self.queued
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend_from_slice(buf);
        Poll::Ready(Ok(buf.len()))
    }

    fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        let out = self.out.clone();
        tokio::spawn(async move {
            if let Err(e) = out.lock().await.write_queued().await {
                eprintln!("rangeread-mcp: could not write an error answer: {e}");
            }
        });
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }
}

/// Lets a pipe on standard output hold a whole large answer (1 MiB, the default
/// `/proc/sys/fs/pipe-max-size`) instead of 64 KiB: the server writes it in one go
/// instead of waking up for every 64 KiB the client reads. Nothing happens when
/// standard output is not a pipe or the system refuses.
#[cfg(target_os = "linux")]
fn widen_stdout_pipe() {
    // SAFETY: F_SETPIPE_SZ only resizes the pipe's buffer; on a descriptor that is not a
    // pipe, or over the system's limit, it fails with EBADF/EINVAL/EPERM, ignored here.
    unsafe {
        libc::fcntl(libc::STDOUT_FILENO, libc::F_SETPIPE_SZ, 1 << 20);
    }
}

#[cfg(not(target_os = "linux"))]
fn widen_stdout_pipe() {}

#[cfg(test)]
mod tests {
    use super::*;
    use rmcp::model::{CallToolResult, NumberOrString};

    fn answer(text: String) -> TxJsonRpcMessage<RoleServer> {
        let mut result =
            CallToolResult::success(vec![ContentBlock::text(text), ContentBlock::text("a note")]);
        result.structured_content = Some(serde_json::json!({"path": "a \"b\"\n", "n": 1}));
        JsonRpcMessage::response(
            ServerResult::CallToolResult(result),
            NumberOrString::Number(7),
        )
    }

    fn written(item: &mut TxJsonRpcMessage<RoleServer>, marker: &Marker) -> (Vec<u8>, usize) {
        let mut out = Counting::default();
        let (mut buf, mut piece) = (Vec::new(), Vec::new());
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        rt.block_on(write_message(&mut out, &mut buf, &mut piece, marker, item))
            .unwrap();
        (out.bytes, out.writes)
    }

    /// The bytes a large answer is written as are those of the message serialized whole,
    /// in one write per piece; the text is back in its block afterwards. The text has
    /// every character JSON escapes (each control character, quote, backslash), DEL, and
    /// multi-byte characters across the pieces' edges.
    #[test]
    fn a_large_answer_is_written_in_pieces_as_the_bytes_of_the_whole_message() {
        let controls: String = (0u8..0x20).chain([0x7f]).map(char::from).collect();
        let line = format!("caf\u{e9} \"q\" \\ {controls} \u{1F600} \u{2028}\r\n");
        let text = line.repeat((3 * PIECE) / line.len() + 7);
        let mut item = answer(text.clone());
        let mut whole = serde_json::to_vec(&item).unwrap();
        whole.push(b'\n');
        let marker = Marker::new();
        let (bytes, writes) = written(&mut item, &marker);
        assert!(
            bytes == whole,
            "the streamed bytes differ from the message serialized whole"
        );
        assert_eq!(writes, text.len().div_ceil(PIECE));
        assert_eq!(large_text(&mut item).map(|t| t.len()), Some(text.len()));

        // A small answer is one write of the same bytes.
        let mut small = answer("short\n".into());
        let mut whole = serde_json::to_vec(&small).unwrap();
        whole.push(b'\n');
        assert_eq!(written(&mut small, &marker), (whole, 1));
    }

    /// A value that holds the marker (it cannot, but by this test) makes the message be
    /// written whole, not spliced at the wrong place.
    #[test]
    fn an_answer_that_holds_the_marker_elsewhere_is_written_whole() {
        let marker = Marker::new();
        let text = "x".repeat(STREAM_FROM);
        let mut item = answer(text.clone());
        if let JsonRpcMessage::Response(JsonRpcResponse {
            result: ServerResult::CallToolResult(r),
            ..
        }) = &mut item
        {
            r.structured_content = Some(serde_json::json!({ "path": marker.text.clone() }));
        }
        let mut whole = serde_json::to_vec(&item).unwrap();
        whole.push(b'\n');
        assert_eq!(written(&mut item, &marker), (whole, 1));
    }

    /// A writer that keeps what it is given and counts the writes.
    #[derive(Default)]
    struct Counting {
        bytes: Vec<u8>,
        writes: usize,
    }

    impl AsyncWrite for Counting {
        fn poll_write(
            mut self: Pin<&mut Self>,
            _: &mut Context<'_>,
            buf: &[u8],
        ) -> Poll<io::Result<usize>> {
            self.bytes.extend_from_slice(buf);
            self.writes += 1;
            Poll::Ready(Ok(buf.len()))
        }
        fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
            Poll::Ready(Ok(()))
        }
        fn poll_shutdown(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
            Poll::Ready(Ok(()))
        }
    }
}
