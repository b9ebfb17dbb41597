#!/usr/bin/env python3
"""Generate a large, realistic Claude Code transcript (JSONL) for benchmarks.

Usage: gen_claude_transcript.py OUT_FILE [--size-mib N] [--seed S]

The file has the shape Claude Code writes (2.x): a summary and a file-history snapshot
at the top; then turns of a user prompt, an assistant reply split over several records
sharing message.id (thinking, text, tool_use), tool-result user records (with
toolUseResult, the bulk of real transcripts), system records, attachments, ai-title
records re-appended now and then, and a custom-title in the middle. It ends with an
assistant reply. Each line is compact JSON, as JSON.stringify writes it.
"""
import json
import os
import random
import sys
import uuid

SESSION = "b3f1c2d4-0000-4000-8000-00000000b1b1"


def main():
    args = sys.argv[1:]
    if not args:
        sys.exit(__doc__)
    out = args[0]
    size = 1024 * 1024 * 1024
    seed = 7
    if "--size-mib" in args:
        size = int(args[args.index("--size-mib") + 1]) * 1024 * 1024
    if "--seed" in args:
        seed = int(args[args.index("--seed") + 1])
    rng = random.Random(seed)
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    words = ("parser index range line byte budget file read tool agent session "
             "transcript message content offset limit order count title search "
             "cache append mmap pread utf8 snap block landmark").split()

    def text(n):
        return " ".join(rng.choice(words) for _ in range(n))

    def dumps(obj):
        return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)

    counter = [0]

    def uid():
        counter[0] += 1
        return "%08x-0000-4000-8000-%012x" % (rng.getrandbits(32), counter[0])

    minute = [0]

    def ts():
        minute[0] += 1
        m = minute[0]
        return "2025-%02d-%02dT%02d:%02d:%02d.000Z" % (
            1 + (m // 40000) % 12, 1 + (m // 1440) % 28, (m // 60) % 24, m % 60, (m * 7) % 60)

    base = {"isSidechain": False, "userType": "external", "cwd": "/work/bench",
            "sessionId": SESSION, "version": "2.0.14", "gitBranch": "main"}
    # A pool of tool outputs, so that generating 1 GiB stays fast.
    outputs = [text(rng.randint(50, 3000)) for _ in range(64)]
    thinking = [text(rng.randint(20, 200)) for _ in range(32)]
    replies = [text(rng.randint(10, 120)) for _ in range(64)]
    prompts = [text(rng.randint(5, 60)) for _ in range(64)]

    written = 0
    parent = None
    turn = 0
    custom_at = size * 3 // 10
    custom_done = False
    with open(out, "w", encoding="utf-8") as f:
        def emit(obj):
            nonlocal written
            line = dumps(obj) + "\n"
            f.write(line)
            written += len(line.encode("utf-8"))

        first = uid()
        emit({"type": "summary", "summary": "Benchmark transcript", "leafUuid": first})
        emit({"type": "file-history-snapshot", "messageId": first,
              "snapshot": {"messageId": first, "trackedFileBackups": {}, "timestamp": ts()},
              "isSnapshotUpdate": False})
        while written < size:
            turn += 1
            u = first if turn == 1 else uid()
            emit(dict(base, parentUuid=parent, type="user",
                      message={"role": "user", "content": "Turn %d: %s" % (turn, rng.choice(prompts))},
                      uuid=u, timestamp=ts()))
            parent = u
            for step in range(rng.randint(1, 4)):
                mid = "msg_%024x" % rng.getrandbits(96)
                usage = {"input_tokens": 4, "cache_creation_input_tokens": rng.randint(0, 5000),
                         "cache_read_input_tokens": rng.randint(1000, 90000),
                         "output_tokens": rng.randint(10, 900), "service_tier": "standard"}
                blocks = [{"type": "thinking", "thinking": rng.choice(thinking), "signature": "sig%x" % turn},
                          {"type": "text", "text": rng.choice(replies)}]
                tid = "toolu_%020x" % rng.getrandbits(80)
                blocks.append({"type": "tool_use", "id": tid, "name": rng.choice(["Bash", "Read", "Edit", "Grep"]),
                               "input": {"command": text(8)}})
                for b in blocks:
                    a = uid()
                    emit(dict(base, parentUuid=parent, type="assistant", uuid=a, timestamp=ts(),
                              message={"id": mid, "type": "message", "role": "assistant",
                                       "model": "claude-opus-4-1-20250805", "content": [b],
                                       "stop_reason": None, "stop_sequence": None, "usage": usage},
                              requestId="req_%020x" % rng.getrandbits(80)))
                    parent = a
                out_text = rng.choice(outputs)
                r = uid()
                emit(dict(base, parentUuid=parent, type="user", uuid=r, timestamp=ts(),
                          message={"role": "user", "content": [{"tool_use_id": tid, "type": "tool_result",
                                                                "content": out_text}]},
                          toolUseResult={"stdout": out_text, "stderr": "", "interrupted": False, "isImage": False}))
                parent = r
            mid = "msg_%024x" % rng.getrandbits(96)
            a = uid()
            emit(dict(base, parentUuid=parent, type="assistant", uuid=a, timestamp=ts(),
                      message={"id": mid, "type": "message", "role": "assistant",
                               "model": "claude-opus-4-1-20250805",
                               "content": [{"type": "text", "text": "Done with turn %d. %s" % (turn, rng.choice(replies))}],
                               "stop_reason": "end_turn", "stop_sequence": None, "usage": {}}))
            parent = a
            if turn % 7 == 0:
                emit(dict(base, parentUuid=parent, type="system", subtype="turn_duration", isMeta=True,
                          content="", durationMs=rng.randint(1000, 90000), uuid=uid(), timestamp=ts()))
            if turn % 11 == 0:
                emit(dict(base, parentUuid=parent, type="attachment", uuid=uid(), timestamp=ts(),
                          attachment={"type": "total_tokens_reminder", "tokens": rng.randint(1, 200000)}))
            if turn % 500 == 0:
                emit({"type": "ai-title", "aiTitle": "Benchmark session, part %d" % (turn // 500),
                      "sessionId": SESSION})
            if not custom_done and written >= custom_at:
                emit({"type": "custom-title", "customTitle": "Huge benchmark transcript", "sessionId": SESSION})
                custom_done = True
    print("%s: %d bytes, %d turns" % (out, written, turn))


if __name__ == "__main__":
    main()
