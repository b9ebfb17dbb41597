"""Every case of tests/peers/*.json through the Python binding: the counts must be the
Rust harness's (every case passes; none is skipped: the extension has both document
readers)."""

import pytest

from peers import peer_file, peer_names, run_case

PEERS = peer_names()


def test_every_peer_file_is_found():
    assert len(PEERS) >= 10, PEERS


@pytest.mark.parametrize("peer", PEERS)
def test_peer_cases(peer, capsys):
    f = peer_file(peer)
    failures = []
    passed = 0
    for case in f["cases"]:
        if case.get("peer_ignored") and not case.get("peer_answers"):
            failures.append(f"{case['id']}: peer_ignored without peer_answers")
            continue
        why = run_case(peer, f["tool"], case)
        if why:
            failures.append(f"{peer}/{case['id']}: " + "; ".join(why))
        else:
            passed += 1
    with capsys.disabled():
        print(f"\n{peer} through the Python binding: {passed} passed, {len(failures)} failed, 0 skipped")
    assert not failures, f"{len(failures)} failed:\n" + "\n".join(failures)


@pytest.mark.parametrize("peer", PEERS)
def test_published_schemas(peer):
    """Each preset's definition is the one the peer publishes, as the Rust harness checks."""
    import rangeread as rr

    f = peer_file(peer)
    if peer not in rr.presets() or not isinstance(f["tool"], str):
        return
    d = rr.DialectTool(peer).definition()
    assert d["name"] == f["tool"]
    if f.get("schema") is not None:
        assert d["input_schema"] == f["schema"]
    if f.get("description") is not None:
        assert d["description"] == f["description"]
