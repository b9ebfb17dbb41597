-- An OpenCode 1.x database (the tables this crate reads, as drizzle creates them),
-- loaded into a temporary opencode.db by tests/sessions.rs.
CREATE TABLE project (id TEXT PRIMARY KEY, worktree TEXT NOT NULL, vcs TEXT, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL);
CREATE TABLE session (
  id TEXT PRIMARY KEY, project_id TEXT NOT NULL, parent_id TEXT, slug TEXT NOT NULL,
  directory TEXT NOT NULL, title TEXT NOT NULL, version TEXT NOT NULL, share_url TEXT,
  time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, time_compacting INTEGER,
  time_archived INTEGER
);
CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL);
CREATE TABLE part (id TEXT PRIMARY KEY, message_id TEXT NOT NULL, session_id TEXT NOT NULL, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL);
CREATE INDEX message_session_idx ON message (session_id);
CREATE INDEX part_message_idx ON part (message_id);

INSERT INTO project VALUES ('4b0ea68d', '/work/app', 'git', 1767225600000, 1767225600000);
INSERT INTO session VALUES
  ('ses_7b2000000001', '4b0ea68d', NULL, 'calm-river', '/work/app', 'Migrate storage to SQLite', '1.2.3', NULL, 1767225600000, 1767229200000, NULL, NULL),
  ('ses_7b2000000002', '4b0ea68d', NULL, 'quiet-lake', '/work/app', 'New session - 2026-01-01T01:00:00.000Z', '1.2.3', NULL, 1767229200000, 1767232800000, NULL, NULL);
INSERT INTO message VALUES
  ('msg_7b2a0001', 'ses_7b2000000001', 1767225600000, 1767225600000, '{"role":"user","time":{"created":1767225600000},"agent":"build","model":{"providerID":"anthropic","modelID":"claude-sonnet-4-5"}}'),
  ('msg_7b2a0002', 'ses_7b2000000001', 1767225605000, 1767225609000, '{"role":"assistant","time":{"created":1767225605000,"completed":1767225609000},"parentID":"msg_7b2a0001","modelID":"claude-sonnet-4-5","providerID":"anthropic","mode":"build","cost":0,"tokens":{"input":10,"output":20,"reasoning":0,"cache":{"read":0,"write":0}}}'),
  ('msg_7b2a0003', 'ses_7b2000000001', 1767225700000, 1767225700000, '{"role":"user","time":{"created":1767225700000}}'),
  ('msg_7b2a0004', 'ses_7b2000000001', 1767225705000, 1767225706000, '{"role":"assistant","time":{"created":1767225705000}}'),
  ('msg_7b2b0001', 'ses_7b2000000002', 1767229200000, 1767229200000, '{"role":"user","time":{"created":1767229200000}}'),
  ('msg_7b2b0002', 'ses_7b2000000002', 1767229205000, 1767229205000, '{"role":"assistant","time":{"created":1767229205000}}');
INSERT INTO part VALUES
  ('prt_7b2a0001a', 'msg_7b2a0001', 'ses_7b2000000001', 1767225600000, 1767225600000, '{"type":"text","text":"Move session storage from JSON files to SQLite"}'),
  ('prt_7b2a0001b', 'msg_7b2a0001', 'ses_7b2000000001', 1767225600001, 1767225600001, '{"type":"text","text":"<system-reminder>plan mode</system-reminder>","synthetic":true}'),
  ('prt_7b2a0002a', 'msg_7b2a0002', 'ses_7b2000000001', 1767225605000, 1767225605000, '{"type":"step-start"}'),
  ('prt_7b2a0002b', 'msg_7b2a0002', 'ses_7b2000000001', 1767225606000, 1767225606000, '{"type":"reasoning","text":"Drizzle migrations.","time":{"start":1,"end":2}}'),
  ('prt_7b2a0002c', 'msg_7b2a0002', 'ses_7b2000000001', 1767225607000, 1767225607000, '{"type":"text","text":"I will add a migration."}'),
  ('prt_7b2a0002d', 'msg_7b2a0002', 'ses_7b2000000001', 1767225608000, 1767225608000, '{"type":"tool","callID":"c1","tool":"write","state":{"status":"completed","input":{},"output":"ok"}}'),
  ('prt_7b2a0002e', 'msg_7b2a0002', 'ses_7b2000000001', 1767225609000, 1767225609000, '{"type":"step-finish","cost":0}'),
  ('prt_7b2a0003a', 'msg_7b2a0003', 'ses_7b2000000001', 1767225700000, 1767225700000, '{"type":"text","text":"Run the migration tests"}'),
  ('prt_7b2a0004a', 'msg_7b2a0004', 'ses_7b2000000001', 1767225705000, 1767225705000, '{"type":"text","text":"All 14 migration tests pass."}'),
  ('prt_7b2b0001a', 'msg_7b2b0001', 'ses_7b2000000002', 1767229200000, 1767229200000, '{"type":"text","text":"Why is startup slow?"}'),
  ('prt_7b2b0002a', 'msg_7b2b0002', 'ses_7b2000000002', 1767229205000, 1767229205000, '{"type":"text","text":"Plugin loading is synchronous."}');
