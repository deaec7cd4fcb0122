/*
 * The caster's plain NTRIP port without a Node Socket per connection (ADR 0095).
 *
 * A Node Socket costs about three times Millipede's CPU per connection before any login (docs/performance.md), so
 * in a reconnection storm the accepts, the request heads and the rovers' connections live here: one thread with
 * epoll accepts, reads each head within the caster's limits (a PROXY header from a balancer is skipped to find the
 * head's end; JavaScript checks it) and hands JavaScript the heads in batches, one call per batch. JavaScript logs
 * rovers in and answers them through `write` (send with MSG_DONTWAIT on its own thread), keeps a rover here
 * (`rover`: its input is read and passed on in batches) or takes the descriptor for a Node Socket (`detach`).
 *
 * Descriptors are closed only when JavaScript says so (`close`), so one JavaScript still writes to (the io_uring
 * fan-out, `write`) is never closed and reused under it. Messages name connections by a 64-bit id, never by the
 * descriptor alone, so a reused descriptor number is never taken for the connection that had it before.
 * Whatever a socket does not take is queued here and sent when epoll says it can take more (EPOLLOUT).
 *
 * A rover's login that JavaScript has answered before is answered here (ADR 0100): JavaScript installs a grant
 * (mountpoint, NTRIP version and Basic credential, exactly as a head spells them, with the answer to send and how long
 * it holds) and lends the account's free connections; a head this thread reads whole and plainly (no PROXY header,
 * nothing after it, no header JavaScript would read differently) that matches a live grant whose account has a seat
 * left spends the seat, is answered and becomes a rover at once, and JavaScript is told in the batch. Anything else
 * goes to JavaScript as before.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <node_api.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* What a connection is doing. */
enum { READING = 1, HANDED, ROVER, ENDED, CLOSING };
/* Records handed to JavaScript. */
enum { EV_HEAD = 1, EV_TIMEOUT, EV_DATA, EV_END, EV_DRAINED, EV_ADMIT };

#define LISTEN_TAG UINT64_MAX
#define WAKE_TAG (UINT64_MAX - 1)
#define FD_BITS 24
#define READ_CHUNK 4096
#define PROXY_V1_MAX 108
/* Grants and watched addresses are kept in chained hash tables of these many buckets. */
#define BUCKETS 4096
#define GRANT_MAX 65536
#define WATCHED_MAX 262144
#define MOUNT_MAX 100
#define TOKEN_MAX 512
#define KEY_MAX (2 + MOUNT_MAX + 1 + TOKEN_MAX)
#define RESPONSE_MAX 1024
#define NO_DATE UINT32_MAX
/* How much lower than the process this thread runs (nice, 0 to 19). */
#define IO_THREAD_NICE 10
/* How long accepting pauses when the process is out of descriptors or memory: they free up only as connections end. */
#define ACCEPT_PAUSE_MS 100
/* Why the listening socket is not watched: the connections are at the cap, or the last accept ran out. */
enum { ACCEPTING = 0, AT_CAP, OUT_OF_RESOURCES };

typedef struct conn {
  uint64_t id;
  int fd;
  int state;
  char peer[INET6_ADDRSTRLEN];
  char *head;
  uint32_t head_len, head_cap;
  int64_t due_ms;
  struct conn *next_due, *prev_due;
  char *out;
  size_t out_off, out_len, out_cap;
  /* Bytes sent from the queue not yet reported to JavaScript. */
  uint64_t drained;
} conn_t;

typedef struct {
  char *data;
  size_t len, cap;
} batch_t;

/* A login JavaScript answered, answered here again while it holds (JavaScript's grant). */
typedef struct grant {
  struct grant *next;
  uint32_t id, account;
  int64_t expires_ms;
  /* Where the answer's Date value goes (an NTRIP 2 answer), or NO_DATE. */
  uint32_t date_at;
  uint32_t response_len, key_len;
  /* The key, then the answer (at key + key_len): a grant is as long as they are. */
  char key[];
} grant_t;

/* An address the login throttle holds failures for: its logins go to JavaScript, which may refuse them. */
typedef struct watched {
  struct watched *next;
  uint32_t len;
  char address[];
} watched_t;

typedef struct {
  pthread_mutex_t lock;
  pthread_t thread;
  int thread_started;
  int epoll_fd, wake_fd, listen_fd;
  volatile int stopping;
  conn_t **conns;
  size_t conns_cap;
  uint64_t next_id;
  uint32_t max_head, header_timeout_ms;
  /* Connections open (accepted and not yet freed), and how many may be: past it the kernel's backlog holds the rest. */
  uint32_t conn_count, max_conns;
  int accept_paused;
  /* When accepting resumes after running out (OUT_OF_RESOURCES). */
  int64_t accept_resume_ms;
  conn_t *due_first, *due_last;
  batch_t batch;
  /* A batch handed to JavaScript and not yet taken: the next waits and grows meanwhile. */
  int in_flight;
  grant_t *grants[BUCKETS];
  uint32_t grant_count;
  watched_t *watched[BUCKETS];
  uint32_t watched_count;
  /* Addresses watched past the table's size: while there are any, every login goes to JavaScript. */
  uint32_t watched_over;
  /* The first read of every head (read_head). */
  char *scratch;
  /* Seats JavaScript lent, by its index of the account: a grant's login spends one. */
  int64_t *seats;
  size_t seats_cap;
  napi_threadsafe_function tsfn;
  int released;
} io_t;

static int64_t now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static uint64_t tag_of(conn_t *c) { return (c->id << FD_BITS) | (uint64_t)c->fd; }

/* The connection a tag or a (fd, id) pair names, or NULL when that connection is gone. */
static conn_t *lookup(io_t *io, int fd, uint64_t id) {
  if (fd < 0 || (size_t)fd >= io->conns_cap) return NULL;
  conn_t *c = io->conns[fd];
  return c && c->id == id ? c : NULL;
}

static int batch_reserve(batch_t *b, size_t more) {
  if (b->len + more <= b->cap) return 1;
  size_t cap = b->cap ? b->cap : 65536;
  while (cap < b->len + more) cap *= 2;
  char *data = realloc(b->data, cap);
  if (!data) return 0;
  b->data = data;
  b->cap = cap;
  return 1;
}

/* A record: type u8, peer length u8, flag u8 (EV_ADMIT: a User-Agent came), 1 spare, fd i32, id f64, payload length u32, grant u32; peer; payload. */
static void emit_grant(io_t *io, int type, conn_t *c, const char *peer, const void *payload, uint32_t len, uint32_t grant) {
  size_t peer_len = peer ? strlen(peer) : 0;
  if (!batch_reserve(&io->batch, 24 + peer_len + len)) return;
  char *p = io->batch.data + io->batch.len;
  memset(p, 0, 24);
  p[0] = (char)type;
  p[1] = (char)peer_len;
  int32_t fd = c->fd;
  double id = (double)c->id;
  memcpy(p + 4, &fd, 4);
  memcpy(p + 8, &id, 8);
  memcpy(p + 16, &len, 4);
  memcpy(p + 20, &grant, 4);
  if (peer_len) memcpy(p + 24, peer, peer_len);
  if (len) memcpy(p + 24 + peer_len, payload, len);
  io->batch.len += 24 + peer_len + len;
}

static void emit(io_t *io, int type, conn_t *c, const char *peer, const void *payload, uint32_t len) {
  emit_grant(io, type, c, peer, payload, len, 0);
}

static void due_remove(io_t *io, conn_t *c) {
  if (c->prev_due) c->prev_due->next_due = c->next_due;
  else if (io->due_first == c) io->due_first = c->next_due;
  if (c->next_due) c->next_due->prev_due = c->prev_due;
  else if (io->due_last == c) io->due_last = c->prev_due;
  c->next_due = c->prev_due = NULL;
}

/*
 * The listening socket is level-triggered: while it has connections waiting that cannot be taken it stays readable,
 * so it is left unwatched until they can be (a freed seat, or the pause over) rather than asked again at once.
 */
static void accept_pause(io_t *io, int why) {
  io->accept_paused = why;
  if (why == OUT_OF_RESOURCES) io->accept_resume_ms = now_ms() + ACCEPT_PAUSE_MS;
  struct epoll_event ev = {.events = 0, .data.u64 = LISTEN_TAG};
  epoll_ctl(io->epoll_fd, EPOLL_CTL_MOD, io->listen_fd, &ev);
}

static void accept_resume(io_t *io) {
  io->accept_paused = ACCEPTING;
  if (io->listen_fd < 0) return;
  struct epoll_event ev = {.events = EPOLLIN, .data.u64 = LISTEN_TAG};
  epoll_ctl(io->epoll_fd, EPOLL_CTL_MOD, io->listen_fd, &ev);
}

static void conn_free(io_t *io, conn_t *c) {
  due_remove(io, c);
  if ((size_t)c->fd < io->conns_cap && io->conns[c->fd] == c) io->conns[c->fd] = NULL;
  free(c->head);
  free(c->out);
  free(c);
  io->conn_count--;
  if (io->accept_paused == AT_CAP && io->conn_count < io->max_conns) accept_resume(io);
}

static void conn_close(io_t *io, conn_t *c, int graceful) {
  if (graceful) shutdown(c->fd, SHUT_WR);
  close(c->fd);
  conn_free(io, c);
}

static void watch(io_t *io, conn_t *c, uint32_t events) {
  struct epoll_event ev = {.events = events, .data.u64 = tag_of(c)};
  epoll_ctl(io->epoll_fd, EPOLL_CTL_MOD, c->fd, &ev);
}

/* A connection being logged in is watched for its end only; a rover for its input too; either for room to write. */
static uint32_t events_of(conn_t *c) {
  return (c->state == ROVER ? EPOLLIN : 0) | EPOLLRDHUP | (c->out_len > c->out_off ? EPOLLOUT : 0);
}

/* The peer is gone: JavaScript hears of it and closes the descriptor when it has let go of it. */
static void conn_end(io_t *io, conn_t *c) {
  epoll_ctl(io->epoll_fd, EPOLL_CTL_DEL, c->fd, NULL);
  c->state = ENDED;
  emit(io, EV_END, c, NULL, NULL, 0);
}

static int starts_with(const char *buf, uint32_t len, const char *prefix, uint32_t prefix_len) {
  return memcmp(buf, prefix, len < prefix_len ? len : prefix_len) == 0;
}

/* 0: more is needed; 1: the head is complete, or it cannot be one JavaScript would accept (it refuses it). */
static int head_ready(io_t *io, conn_t *c) {
  static const char v2[12] = {'\r', '\n', '\r', '\n', 0, '\r', '\n', 'Q', 'U', 'I', 'T', '\n'};
  const char *buf = c->head;
  uint32_t len = c->head_len, skip = 0;
  if (len == c->head_cap) return 1;
  if (starts_with(buf, len, v2, sizeof v2)) {
    if (len < 16) return 0;
    skip = 16 + (((uint32_t)(uint8_t)buf[14] << 8) | (uint8_t)buf[15]);
    if (len < skip) return 0;
  } else if (starts_with(buf, len, "PROXY ", 6)) {
    const char *end = memmem(buf, len < PROXY_V1_MAX ? len : PROXY_V1_MAX, "\r\n", 2);
    if (!end) return len >= PROXY_V1_MAX;
    skip = (uint32_t)(end - buf) + 2;
  }
  if (memmem(buf + skip, len - skip, "\r\n\r\n", 4) || memmem(buf + skip, len - skip, "\n\n", 2)) return 1;
  return len - skip > io->max_head;
}

static uint64_t hash_bytes(const char *s, uint32_t len) {
  uint64_t h = 1469598103934665603ULL;
  for (uint32_t i = 0; i < len; i++) h = (h ^ (uint8_t)s[i]) * 1099511628211ULL;
  return h;
}

/* Sends now what the socket takes and queues the rest (EPOLLOUT); the bytes queued, or -1 when the socket failed. */
static double send_or_queue(io_t *io, conn_t *c, const char *data, size_t len) {
  size_t sent = 0;
  if (c->out_len == c->out_off) {
    for (;;) {
      ssize_t n = send(c->fd, data, len, MSG_DONTWAIT | MSG_NOSIGNAL);
      if (n < 0 && errno == EINTR) continue;
      if (n >= 0) sent = (size_t)n;
      else if (errno != EAGAIN) return -1;
      break;
    }
  }
  if (sent == len) return 0;
  size_t rest = len - sent;
  if (c->out_len + rest > c->out_cap) {
    size_t cap = c->out_cap ? c->out_cap : 16384;
    while (cap < c->out_len + rest) cap *= 2;
    char *out = realloc(c->out, cap);
    if (!out) return -1;
    c->out = out;
    c->out_cap = cap;
  }
  memcpy(c->out + c->out_len, data + sent, rest);
  c->out_len += rest;
  watch(io, c, events_of(c));
  return (double)rest;
}

/* The address without its IPv6-mapped prefix, as JavaScript names a client to the login throttle. */
static const char *unmapped(const char *peer) { return strncmp(peer, "::ffff:", 7) == 0 ? peer + 7 : peer; }

static int watched_has(io_t *io, const char *address) {
  if (io->watched_over) return 1;
  if (io->watched_count == 0) return 0;
  uint32_t len = (uint32_t)strlen(address);
  for (watched_t *w = io->watched[hash_bytes(address, len) % BUCKETS]; w; w = w->next)
    if (w->len == len && memcmp(w->address, address, len) == 0) return 1;
  return 0;
}

static int is_alnum(uint8_t ch) { return (ch >= '0' && ch <= '9') || ((ch | 0x20) >= 'a' && (ch | 0x20) <= 'z'); }
static int is_mount_char(uint8_t ch) { return is_alnum(ch) || ch == '_' || ch == '-' || ch == '.'; }
static int is_token_char(uint8_t ch) { return is_alnum(ch) || ch == '-'; }
static int is_base64_char(uint8_t ch) { return is_alnum(ch) || ch == '+' || ch == '/' || ch == '='; }
static int is_blank(uint8_t ch) { return ch == ' ' || ch == '\t'; }

/* A header name (or any ASCII text) equal to a lower-case literal, case aside. */
static int same_word(const char *text, uint32_t len, const char *lower) {
  uint32_t n = (uint32_t)strlen(lower);
  if (len != n) return 0;
  for (uint32_t i = 0; i < n; i++) {
    uint8_t ch = (uint8_t)text[i];
    if ((ch >= 'A' && ch <= 'Z' ? ch | 0x20 : ch) != (uint8_t)lower[i]) return 0;
  }
  return 1;
}

/* A rover's head as the fast path reads it: what its grant is found by, and its User-Agent for JavaScript. */
typedef struct {
  char key[KEY_MAX];
  uint32_t key_len;
  const char *agent;
  uint32_t agent_len;
} login_t;

/*
 * Reads a head only where JavaScript's parser (request.ts) cannot read it otherwise: `GET /NAME HTTP/1.x`, CRLF
 * lines, header names of token characters, at most one Authorization (Basic and base64 only), Ntrip-Version and
 * User-Agent, no Ntrip-GGA, and nothing after the blank line. 0 for anything else: JavaScript reads it.
 */
static int read_login(const char *buf, uint32_t len, login_t *login) {
  if (len < 9 || memcmp(buf, "GET /", 5) != 0 || memcmp(buf + len - 4, "\r\n\r\n", 4) != 0) return 0;
  uint32_t i = 5;
  while (i < len && is_mount_char((uint8_t)buf[i])) i++;
  uint32_t mount_len = i - 5;
  if (mount_len == 0 || mount_len > MOUNT_MAX || len - i < 11) return 0;
  if (memcmp(buf + i, " HTTP/1.0\r\n", 11) != 0 && memcmp(buf + i, " HTTP/1.1\r\n", 11) != 0) return 0;
  i += 11;
  const char *token = NULL;
  uint32_t token_len = 0;
  int version = 1, version_seen = 0;
  login->agent = NULL;
  login->agent_len = 0;
  while (i < len && buf[i] != '\r') {
    uint32_t name_at = i;
    while (i < len && is_token_char((uint8_t)buf[i])) i++;
    uint32_t name_len = i - name_at;
    if (name_len == 0 || i >= len || buf[i] != ':') return 0;
    uint32_t value_at = ++i;
    while (i < len && buf[i] != '\r') {
      uint8_t ch = (uint8_t)buf[i++];
      if ((ch < 0x20 && ch != '\t') || ch == 0x7f) return 0;
    }
    if (i + 1 >= len || buf[i + 1] != '\n') return 0;
    uint32_t value_end = i;
    i += 2;
    const char *name = buf + name_at;
    uint32_t from = value_at, to = value_end;
    while (from < to && is_blank((uint8_t)buf[from])) from++;
    while (to > from && is_blank((uint8_t)buf[to - 1])) to--;
    if (same_word(name, name_len, "authorization")) {
      if (token || to - from < 7 || !same_word(buf + from, 5, "basic") || !is_blank((uint8_t)buf[from + 5])) return 0;
      uint32_t t = from + 5;
      while (t < to && is_blank((uint8_t)buf[t])) t++;
      token = buf + t;
      while (t < to && is_base64_char((uint8_t)buf[t])) t++;
      token_len = (uint32_t)(buf + t - token);
      if (t != to || token_len == 0 || token_len > TOKEN_MAX) return 0;
    } else if (same_word(name, name_len, "ntrip-version")) {
      if (version_seen++) return 0;
      for (uint32_t t = from; t < to; t++)
        if ((uint8_t)buf[t] <= 0x20 || (uint8_t)buf[t] >= 0x7f) return 0;
      version = same_word(buf + from, to - from, "ntrip/2.0") ? 2 : 1;
    } else if (same_word(name, name_len, "user-agent")) {
      if (login->agent) return 0;
      login->agent = buf + value_at;
      login->agent_len = value_end - value_at;
    } else if (same_word(name, name_len, "ntrip-gga")) {
      return 0;
    }
  }
  if (i != len - 2 || !token) return 0;
  char *k = login->key;
  *k++ = (char)('0' + version);
  *k++ = ' ';
  memcpy(k, buf + 5, mount_len);
  k += mount_len;
  *k++ = ' ';
  memcpy(k, token, token_len);
  login->key_len = (uint32_t)(k + token_len - login->key);
  return 1;
}

static grant_t *grant_find(io_t *io, const char *key, uint32_t len) {
  for (grant_t *g = io->grants[hash_bytes(key, len) % BUCKETS]; g; g = g->next)
    if (g->key_len == len && memcmp(g->key, key, len) == 0) return g;
  return NULL;
}

/* RFC 1123 date of now, 29 characters, without the C library's locale. */
static void http_date(char *out) {
  static const char days[] = "SunMonTueWedThuFriSat", months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
  time_t now = time(NULL);
  struct tm tm;
  gmtime_r(&now, &tm);
  char text[64];
  snprintf(text, sizeof text, "%.3s, %02d %.3s %04d %02d:%02d:%02d GMT", days + 3 * tm.tm_wday, tm.tm_mday,
           months + 3 * tm.tm_mon, tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec);
  memcpy(out, text, 29);
}

/* Answers a head from a grant when it may (see the top of this file): 1 when it became a rover here. */
static int admit(io_t *io, conn_t *c, const char *head) {
  login_t login;
  if (io->grant_count == 0 || !read_login(head, c->head_len, &login) || watched_has(io, unmapped(c->peer))) return 0;
  grant_t *g = grant_find(io, login.key, login.key_len);
  if (!g || g->expires_ms <= now_ms() || g->account >= io->seats_cap || io->seats[g->account] <= 0) return 0;
  io->seats[g->account]--;
  char response[RESPONSE_MAX];
  memcpy(response, g->key + g->key_len, g->response_len);
  if (g->date_at != NO_DATE) http_date(response + g->date_at);
  due_remove(io, c);
  /* Watched as it was while its head was read (EPOLLIN, EPOLLRDHUP): a rover's input and end, nothing to change. */
  c->state = ROVER;
  /* A socket that failed ends through epoll like any rover's. */
  send_or_queue(io, c, response, g->response_len);
  size_t record = io->batch.len;
  emit_grant(io, EV_ADMIT, c, c->peer, login.agent, login.agent_len, g->id);
  /* The spare byte says whether the head had a User-Agent, which may be empty. */
  if (login.agent && io->batch.len > record) io->batch.data[record + 2] = 1;
  return 1;
}

/*
 * Reads a head. Most come whole in one read, so the first goes to the thread's own buffer and a connection gets a
 * buffer of its own only when its head is still incomplete after it.
 */
static void read_head(io_t *io, conn_t *c) {
  int borrowed = c->head == NULL;
  if (borrowed) c->head = io->scratch;
  for (;;) {
    ssize_t n = recv(c->fd, c->head + c->head_len, c->head_cap - c->head_len, 0);
    if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
      /* Gone before its head was read: JavaScript never knew of it. */
      if (borrowed) c->head = NULL;
      conn_close(io, c, 0);
      return;
    }
    if (n < 0) {
      if (errno == EINTR) continue;
      break;
    }
    c->head_len += (uint32_t)n;
    if (head_ready(io, c)) {
      char *head = c->head;
      c->head = NULL;
      if (!admit(io, c, head)) {
        due_remove(io, c);
        c->state = HANDED;
        watch(io, c, EPOLLRDHUP);
        emit(io, EV_HEAD, c, c->peer, head, c->head_len);
      }
      if (!borrowed) free(head);
      return;
    }
  }
  if (!borrowed) return;
  char *own = c->head_len ? malloc(c->head_cap) : NULL;
  if (own) memcpy(own, c->head, c->head_len);
  c->head = own;
  /* Without memory for the rest of its head the connection cannot be served. */
  if (c->head_len && !own) conn_close(io, c, 0);
}

static void read_rover(io_t *io, conn_t *c) {
  char buf[READ_CHUNK];
  for (;;) {
    ssize_t n = recv(c->fd, buf, sizeof buf, 0);
    if (n > 0) {
      emit(io, EV_DATA, c, NULL, buf, (uint32_t)n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) return;
    conn_end(io, c);
    return;
  }
}

/* Sends what is queued; 1 once the queue is empty, 0 while the socket is full, -1 when the socket failed. */
static int flush_out(conn_t *c) {
  while (c->out_off < c->out_len) {
    ssize_t n = send(c->fd, c->out + c->out_off, c->out_len - c->out_off, MSG_DONTWAIT | MSG_NOSIGNAL);
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno == EAGAIN ? 0 : -1;
    }
    c->out_off += (size_t)n;
    c->drained += (uint64_t)n;
  }
  /* A rover that caught up keeps no queue: a backlog is megabytes, and most rovers never have one. */
  free(c->out);
  c->out = NULL;
  c->out_off = c->out_len = c->out_cap = 0;
  return 1;
}

static void on_writable(io_t *io, conn_t *c) {
  int done = flush_out(c);
  if (c->state == CLOSING) {
    if (done != 0) conn_close(io, c, done > 0);
    return;
  }
  if (done < 0) return conn_end(io, c);
  if (done > 0) {
    double drained = (double)c->drained;
    c->drained = 0;
    emit(io, EV_DRAINED, c, NULL, &drained, sizeof drained);
    watch(io, c, events_of(c));
  }
}

static void accept_all(io_t *io) {
  for (int i = 0; i < 512; i++) {
    if (io->conn_count >= io->max_conns) return accept_pause(io, AT_CAP);
    struct sockaddr_storage addr;
    socklen_t addr_len = sizeof addr;
    int fd = accept4(io->listen_fd, (struct sockaddr *)&addr, &addr_len, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) {
      if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) accept_pause(io, OUT_OF_RESOURCES);
      return;
    }
    if ((size_t)fd >= io->conns_cap || fd >= (1 << FD_BITS)) {
      size_t cap = io->conns_cap ? io->conns_cap : 1024;
      while (cap <= (size_t)fd) cap *= 2;
      conn_t **conns = fd < (1 << FD_BITS) ? realloc(io->conns, cap * sizeof *conns) : NULL;
      if (!conns) {
        close(fd);
        continue;
      }
      memset(conns + io->conns_cap, 0, (cap - io->conns_cap) * sizeof *conns);
      io->conns = conns;
      io->conns_cap = cap;
    }
    conn_t *c = calloc(1, sizeof *c);
    if (!c) {
      close(fd);
      continue;
    }
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    c->id = ++io->next_id;
    c->fd = fd;
    c->state = READING;
    c->head_cap = io->max_head + 1024;
    if (addr.ss_family == AF_INET)
      inet_ntop(AF_INET, &((struct sockaddr_in *)&addr)->sin_addr, c->peer, sizeof c->peer);
    else if (addr.ss_family == AF_INET6)
      inet_ntop(AF_INET6, &((struct sockaddr_in6 *)&addr)->sin6_addr, c->peer, sizeof c->peer);
    c->due_ms = now_ms() + io->header_timeout_ms;
    c->prev_due = io->due_last;
    if (io->due_last) io->due_last->next_due = c;
    else io->due_first = c;
    io->due_last = c;
    io->conns[fd] = c;
    io->conn_count++;
    struct epoll_event ev = {.events = EPOLLIN | EPOLLRDHUP, .data.u64 = tag_of(c)};
    epoll_ctl(io->epoll_fd, EPOLL_CTL_ADD, fd, &ev);
  }
}

/* Heads not read in time go to JavaScript, which answers 408 (every head has the same time: the oldest is first). */
static void expire_heads(io_t *io, int64_t now) {
  while (io->due_first && io->due_first->due_ms <= now) {
    conn_t *c = io->due_first;
    due_remove(io, c);
    c->state = HANDED;
    watch(io, c, EPOLLRDHUP);
    emit(io, EV_TIMEOUT, c, c->peer, c->head, c->head_len);
    free(c->head);
    c->head = NULL;
  }
}

static void post_batch(io_t *io) {
  if (io->in_flight || io->batch.len == 0 || io->released) return;
  batch_t *b = malloc(sizeof *b);
  if (!b) return;
  *b = io->batch;
  memset(&io->batch, 0, sizeof io->batch);
  io->in_flight = 1;
  if (napi_call_threadsafe_function(io->tsfn, b, napi_tsfn_nonblocking) != napi_ok) {
    io->batch = *b;
    free(b);
    io->in_flight = 0;
  }
}

static void *io_thread(void *arg) {
  io_t *io = arg;
  /*
   * Logins after frames: when the cores are short (a storm), the event loop and the fan-out threads that relay to
   * the rovers already connected go first, and this thread takes what they leave. A thread may always lower its own
   * priority; the event loop's stays the process's.
   */
  setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), IO_THREAD_NICE);
  /* Named so a profile or /proc tells its CPU from the event loop's. */
  pthread_setname_np(pthread_self(), "caster-io");
  struct epoll_event events[256];
  while (!io->stopping) {
    pthread_mutex_lock(&io->lock);
    int64_t now = now_ms(), due = INT64_MAX;
    if (io->accept_paused == OUT_OF_RESOURCES && io->accept_resume_ms <= now) accept_resume(io);
    if (io->due_first) due = io->due_first->due_ms;
    if (io->accept_paused == OUT_OF_RESOURCES && io->accept_resume_ms < due) due = io->accept_resume_ms;
    int timeout = due == INT64_MAX ? -1 : due <= now ? 0 : (int)(due - now);
    pthread_mutex_unlock(&io->lock);
    int n = epoll_wait(io->epoll_fd, events, 256, timeout);
    pthread_mutex_lock(&io->lock);
    for (int i = 0; i < n; i++) {
      uint64_t tag = events[i].data.u64;
      uint32_t what = events[i].events;
      if (tag == LISTEN_TAG) {
        if (io->listen_fd >= 0) accept_all(io);
        continue;
      }
      if (tag == WAKE_TAG) {
        uint64_t value;
        if (read(io->wake_fd, &value, sizeof value) < 0) continue;
        continue;
      }
      conn_t *c = lookup(io, (int)(tag & ((1u << FD_BITS) - 1)), tag >> FD_BITS);
      if (!c) continue;
      switch (c->state) {
        case READING:
          read_head(io, c);
          break;
        case HANDED:
          if (what & EPOLLOUT) on_writable(io, c);
          if (c->state == HANDED && (what & (EPOLLRDHUP | EPOLLHUP | EPOLLERR))) conn_end(io, c);
          break;
        case ROVER:
          if (what & EPOLLOUT) on_writable(io, c);
          if (c->state == ROVER && (what & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR))) read_rover(io, c);
          break;
        case CLOSING:
          if (what & (EPOLLHUP | EPOLLERR)) conn_close(io, c, 0);
          else on_writable(io, c);
          break;
      }
    }
    expire_heads(io, now_ms());
    post_batch(io);
    pthread_mutex_unlock(&io->lock);
  }
  return NULL;
}

static void wake(io_t *io) {
  uint64_t one = 1;
  if (write(io->wake_fd, &one, sizeof one) < 0) return;
}

static void call_js(napi_env env, napi_value js_cb, void *context, void *data) {
  io_t *io = context;
  batch_t *b = data;
  /* Without an environment the function is being torn down and the handle may be gone: only the batch is freed. */
  if (!env) {
    free(b->data);
    free(b);
    return;
  }
  if (js_cb) {
    napi_value buffer, undefined;
    void *copy;
    /* A copy the garbage collector owns, so the batch's memory is free for the next one at once. */
    if (napi_create_buffer_copy(env, b->len, b->data, &copy, &buffer) == napi_ok) {
      napi_get_undefined(env, &undefined);
      napi_call_function(env, undefined, js_cb, 1, &buffer, NULL);
    }
  }
  free(b->data);
  free(b);
  pthread_mutex_lock(&io->lock);
  io->in_flight = 0;
  int more = io->batch.len > 0;
  pthread_mutex_unlock(&io->lock);
  if (more) wake(io);
}

/* The error's code is the errno's number, which JavaScript turns into Node's name for it (EADDRINUSE). */
static napi_value throw_errno(napi_env env, const char *what, int err) {
  char message[160], code[16];
  snprintf(message, sizeof message, "%s: %s", what, strerror(err));
  snprintf(code, sizeof code, "%d", err);
  napi_throw_error(env, code, message);
  return NULL;
}

static void stop_io(io_t *io) {
  if (io->thread_started) {
    io->stopping = 1;
    wake(io);
    pthread_join(io->thread, NULL);
    io->thread_started = 0;
  }
  for (size_t fd = 0; fd < io->conns_cap; fd++)
    if (io->conns[fd]) conn_close(io, io->conns[fd], 0);
  if (io->listen_fd >= 0) close(io->listen_fd);
  io->listen_fd = -1;
  if (!io->released) {
    io->released = 1;
    napi_release_threadsafe_function(io->tsfn, napi_tsfn_abort);
  }
}

static void finalize_io(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  io_t *io = data;
  stop_io(io);
  close(io->epoll_fd);
  close(io->wake_fd);
  free(io->conns);
  free(io->batch.data);
  free(io->scratch);
  free(io->seats);
  for (size_t b = 0; b < BUCKETS; b++) {
    for (grant_t *g = io->grants[b], *next; g; g = next) {
      next = g->next;
      free(g);
    }
    for (watched_t *w = io->watched[b], *next; w; w = next) {
      next = w->next;
      free(w);
    }
  }
  pthread_mutex_destroy(&io->lock);
  free(io);
}

static io_t *io_of(napi_env env, napi_value value) {
  void *io = NULL;
  if (napi_get_value_external(env, value, &io) != napi_ok || !io) napi_throw_type_error(env, NULL, "not a native I/O handle");
  return io;
}

/* open(maxHeadBytes: number, headerTimeoutMs: number, onBatch: (batch: Buffer) => void, maxConnections: number): handle */
static napi_value js_open(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  uint32_t max_head, timeout, max_conns;
  if (argc < 4 || napi_get_value_uint32(env, argv[0], &max_head) != napi_ok ||
      napi_get_value_uint32(env, argv[1], &timeout) != napi_ok ||
      napi_get_value_uint32(env, argv[3], &max_conns) != napi_ok || max_conns == 0) {
    napi_throw_type_error(env, NULL, "open(maxHeadBytes, headerTimeoutMs, onBatch, maxConnections)");
    return NULL;
  }
  io_t *io = calloc(1, sizeof *io);
  if (!io) return throw_errno(env, "open", ENOMEM);
  io->max_head = max_head;
  io->scratch = malloc(max_head + 1024);
  if (!io->scratch) {
    free(io);
    return throw_errno(env, "open", ENOMEM);
  }
  io->header_timeout_ms = timeout;
  io->max_conns = max_conns;
  io->listen_fd = -1;
  pthread_mutex_init(&io->lock, NULL);
  io->epoll_fd = epoll_create1(EPOLL_CLOEXEC);
  io->wake_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (io->epoll_fd < 0 || io->wake_fd < 0) {
    int err = errno;
    if (io->epoll_fd >= 0) close(io->epoll_fd);
    if (io->wake_fd >= 0) close(io->wake_fd);
    free(io->scratch);
    free(io);
    return throw_errno(env, "epoll", err);
  }
  struct epoll_event ev = {.events = EPOLLIN, .data.u64 = WAKE_TAG};
  epoll_ctl(io->epoll_fd, EPOLL_CTL_ADD, io->wake_fd, &ev);
  napi_value name;
  napi_create_string_utf8(env, "caster native I/O", NAPI_AUTO_LENGTH, &name);
  if (napi_create_threadsafe_function(env, argv[2], NULL, name, 0, 1, NULL, NULL, io, call_js, &io->tsfn) != napi_ok) {
    close(io->epoll_fd);
    close(io->wake_fd);
    free(io->scratch);
    free(io);
    napi_throw_error(env, NULL, "napi_create_threadsafe_function failed");
    return NULL;
  }
  if (pthread_create(&io->thread, NULL, io_thread, io) != 0) {
    int err = errno;
    napi_release_threadsafe_function(io->tsfn, napi_tsfn_abort);
    close(io->epoll_fd);
    close(io->wake_fd);
    free(io->scratch);
    free(io);
    return throw_errno(env, "pthread_create", err);
  }
  io->thread_started = 1;
  napi_value handle;
  napi_create_external(env, io, finalize_io, NULL, &handle);
  return handle;
}

/* listen(handle, host: string, port: number): number (the port bound) */
static napi_value js_listen(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  io_t *io = io_of(env, argv[0]);
  if (!io) return NULL;
  char host[64];
  uint32_t port;
  if (argc < 3 || napi_get_value_string_utf8(env, argv[1], host, sizeof host, NULL) != napi_ok ||
      napi_get_value_uint32(env, argv[2], &port) != napi_ok || port > 65535) {
    napi_throw_type_error(env, NULL, "listen(handle, host, port)");
    return NULL;
  }
  struct sockaddr_storage addr;
  memset(&addr, 0, sizeof addr);
  socklen_t addr_len;
  struct sockaddr_in *v4 = (struct sockaddr_in *)&addr;
  struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)&addr;
  if (inet_pton(AF_INET, host, &v4->sin_addr) == 1) {
    v4->sin_family = AF_INET;
    v4->sin_port = htons((uint16_t)port);
    addr_len = sizeof *v4;
  } else if (inet_pton(AF_INET6, host, &v6->sin6_addr) == 1) {
    v6->sin6_family = AF_INET6;
    v6->sin6_port = htons((uint16_t)port);
    addr_len = sizeof *v6;
  } else {
    napi_throw_error(env, NULL, "native I/O listens on an IP address, not a host name");
    return NULL;
  }
  int fd = socket(addr.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) return throw_errno(env, "socket", errno);
  int one = 1, zero = 0;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (addr.ss_family == AF_INET6) setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof zero);
  if (bind(fd, (struct sockaddr *)&addr, addr_len) < 0 || listen(fd, 4096) < 0) {
    int err = errno;
    close(fd);
    return throw_errno(env, "listen", err);
  }
  addr_len = sizeof addr;
  getsockname(fd, (struct sockaddr *)&addr, &addr_len);
  uint16_t bound = ntohs(addr.ss_family == AF_INET ? v4->sin_port : v6->sin6_port);
  pthread_mutex_lock(&io->lock);
  if (io->listen_fd >= 0) {
    pthread_mutex_unlock(&io->lock);
    close(fd);
    napi_throw_error(env, NULL, "native I/O listens on one port");
    return NULL;
  }
  io->listen_fd = fd;
  struct epoll_event ev = {.events = EPOLLIN, .data.u64 = LISTEN_TAG};
  epoll_ctl(io->epoll_fd, EPOLL_CTL_ADD, fd, &ev);
  pthread_mutex_unlock(&io->lock);
  napi_value result;
  napi_create_uint32(env, bound, &result);
  return result;
}

/* The handle, connection id and descriptor every per-connection call starts with. */
static io_t *conn_args(napi_env env, napi_callback_info info, size_t want, napi_value *argv, uint64_t *id, int *fd) {
  size_t argc = want;
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  double id_value;
  int32_t fd_value;
  if (argc < want || napi_get_value_double(env, argv[1], &id_value) != napi_ok ||
      napi_get_value_int32(env, argv[2], &fd_value) != napi_ok) {
    napi_throw_type_error(env, NULL, "(handle, id, fd, ...)");
    return NULL;
  }
  *id = (uint64_t)id_value;
  *fd = fd_value;
  return io_of(env, argv[0]);
}

static napi_value number(napi_env env, double value) {
  napi_value result;
  napi_create_double(env, value, &result);
  return result;
}

/*
 * write(handle, id, fd, data: Uint8Array): number — sends now what the socket takes and queues the rest (sent on
 * EPOLLOUT, reported as drained); the bytes queued, or -1 when the connection is gone or failed. After an end record
 * only what the socket takes at once is sent.
 */
static napi_value js_write(napi_env env, napi_callback_info info) {
  napi_value argv[4];
  uint64_t id;
  int fd;
  io_t *io = conn_args(env, info, 4, argv, &id, &fd);
  if (!io) return NULL;
  void *data;
  size_t len;
  napi_typedarray_type type;
  bool is;
  if (napi_is_typedarray(env, argv[3], &is) != napi_ok || !is ||
      napi_get_typedarray_info(env, argv[3], &type, &len, &data, NULL, NULL) != napi_ok || type != napi_uint8_array) {
    napi_throw_type_error(env, NULL, "write(handle, id, fd, data: Uint8Array)");
    return NULL;
  }
  pthread_mutex_lock(&io->lock);
  conn_t *c = lookup(io, fd, id);
  double queued = -1;
  if (c && c->state == ENDED) {
    /* The peer half-closed (or is gone): it may still read an answer, but nothing is watched for it any more. */
    ssize_t n = send(fd, data, len, MSG_DONTWAIT | MSG_NOSIGNAL);
    queued = n == (ssize_t)len ? 0 : -1;
  } else if (c && (c->state == HANDED || c->state == ROVER)) {
    queued = send_or_queue(io, c, data, len);
  }
  pthread_mutex_unlock(&io->lock);
  return number(env, queued);
}

/* rover(handle, id, fd): the connection is a rover now: what it sends is read and passed on. */
static napi_value js_rover(napi_env env, napi_callback_info info) {
  napi_value argv[3];
  uint64_t id;
  int fd;
  io_t *io = conn_args(env, info, 3, argv, &id, &fd);
  if (!io) return NULL;
  pthread_mutex_lock(&io->lock);
  conn_t *c = lookup(io, fd, id);
  if (c && c->state == HANDED) {
    c->state = ROVER;
    watch(io, c, events_of(c));
  }
  pthread_mutex_unlock(&io->lock);
  return NULL;
}

/* close(handle, id, fd, graceful: boolean): graceful sends what is queued first, then the end of the stream. */
static napi_value js_close(napi_env env, napi_callback_info info) {
  napi_value argv[4];
  uint64_t id;
  int fd;
  io_t *io = conn_args(env, info, 4, argv, &id, &fd);
  if (!io) return NULL;
  bool graceful = false;
  napi_get_value_bool(env, argv[3], &graceful);
  pthread_mutex_lock(&io->lock);
  conn_t *c = lookup(io, fd, id);
  if (c) {
    if (graceful && c->out_len > c->out_off) {
      /* A peer that only half-closed (an end record) still reads: what is queued for it goes first. */
      struct epoll_event ev = {.events = EPOLLOUT, .data.u64 = tag_of(c)};
      epoll_ctl(io->epoll_fd, c->state == ENDED ? EPOLL_CTL_ADD : EPOLL_CTL_MOD, c->fd, &ev);
      c->state = CLOSING;
    } else {
      conn_close(io, c, graceful);
    }
  }
  pthread_mutex_unlock(&io->lock);
  return NULL;
}

/* detach(handle, id, fd): number — the descriptor, no longer watched here, for a Node Socket; -1 when gone. */
static napi_value js_detach(napi_env env, napi_callback_info info) {
  napi_value argv[3];
  uint64_t id;
  int fd;
  io_t *io = conn_args(env, info, 3, argv, &id, &fd);
  if (!io) return NULL;
  pthread_mutex_lock(&io->lock);
  conn_t *c = lookup(io, fd, id);
  int result = -1;
  if (c && c->state == HANDED && c->out_len == c->out_off) {
    epoll_ctl(io->epoll_fd, EPOLL_CTL_DEL, fd, NULL);
    conn_free(io, c);
    result = fd;
  } else if (c) {
    conn_close(io, c, 0);
  }
  pthread_mutex_unlock(&io->lock);
  return number(env, result);
}

static int buffer_arg(napi_env env, napi_value value, void **data, size_t *len) {
  bool is;
  return napi_is_buffer(env, value, &is) == napi_ok && is && napi_get_buffer_info(env, value, data, len) == napi_ok;
}

/* The handle and `count` numbers after it, or NULL (a TypeError thrown, naming `usage`). */
static io_t *handle_numbers(napi_env env, napi_callback_info info, size_t count, double *values, const char *usage) {
  size_t argc = 4;
  napi_value argv[4];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  io_t *io = argc == count + 1 ? io_of(env, argv[0]) : NULL;
  for (size_t i = 0; io && i < count; i++)
    if (napi_get_value_double(env, argv[i + 1], &values[i]) != napi_ok) io = NULL;
  if (!io) napi_throw_type_error(env, NULL, usage);
  return io;
}

/*
 * grant(handle, key: Buffer, id: number, account: number, ttlMs: number, response: Buffer, dateAt: number) — a
 * login to answer here for ttlMs: key is `{version} {mountpoint} {Basic token}`, account JavaScript's index of the
 * account whose seats it spends, dateAt where the answer's Date value goes (-1: none). Replaces the grant of the same
 * key; false when the table is full.
 */
static napi_value js_grant(napi_env env, napi_callback_info info) {
  size_t argc = 7;
  napi_value argv[7];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  io_t *io = argc == 7 ? io_of(env, argv[0]) : NULL;
  void *key, *response;
  size_t key_len, response_len;
  uint32_t id, account, ttl;
  int32_t date_at;
  if (!io || !buffer_arg(env, argv[1], &key, &key_len) || !buffer_arg(env, argv[5], &response, &response_len) ||
      napi_get_value_uint32(env, argv[2], &id) != napi_ok || napi_get_value_uint32(env, argv[3], &account) != napi_ok ||
      napi_get_value_uint32(env, argv[4], &ttl) != napi_ok || napi_get_value_int32(env, argv[6], &date_at) != napi_ok ||
      key_len == 0 || key_len > KEY_MAX || response_len > RESPONSE_MAX ||
      (date_at >= 0 && (size_t)date_at + 29 > response_len)) {
    napi_throw_type_error(env, NULL, "grant(handle, key, id, account, ttlMs, response, dateAt)");
    return NULL;
  }
  grant_t *g = malloc(sizeof *g + key_len + response_len);
  if (!g) return throw_errno(env, "grant", ENOMEM);
  g->id = id;
  g->account = account;
  g->expires_ms = now_ms() + ttl;
  g->date_at = date_at < 0 ? NO_DATE : (uint32_t)date_at;
  g->response_len = (uint32_t)response_len;
  g->key_len = (uint32_t)key_len;
  memcpy(g->key, key, key_len);
  memcpy(g->key + key_len, response, response_len);
  bool stored = true;
  pthread_mutex_lock(&io->lock);
  grant_t **slot = &io->grants[hash_bytes(key, (uint32_t)key_len) % BUCKETS];
  while (*slot && !((*slot)->key_len == key_len && memcmp((*slot)->key, key, key_len) == 0)) slot = &(*slot)->next;
  if (*slot) {
    g->next = (*slot)->next;
    free(*slot);
    *slot = g;
  } else if (io->grant_count < GRANT_MAX) {
    g->next = NULL;
    *slot = g;
    io->grant_count++;
  } else {
    free(g);
    stored = false;
  }
  pthread_mutex_unlock(&io->lock);
  napi_value result;
  napi_get_boolean(env, stored, &result);
  return result;
}

/* forget(handle, account: number): drops the grants of an account (-1: all of them); its seats stay lent. */
static napi_value js_forget(napi_env env, napi_callback_info info) {
  double value;
  io_t *io = handle_numbers(env, info, 1, &value, "forget(handle, account)");
  if (!io) return NULL;
  int64_t account = (int64_t)value;
  pthread_mutex_lock(&io->lock);
  for (size_t b = 0; b < BUCKETS; b++) {
    grant_t **slot = &io->grants[b];
    while (*slot) {
      grant_t *g = *slot;
      if (account >= 0 && g->account != (uint64_t)account) {
        slot = &g->next;
        continue;
      }
      *slot = g->next;
      free(g);
      io->grant_count--;
    }
  }
  pthread_mutex_unlock(&io->lock);
  return NULL;
}

/* lend(handle, account: number, seats: number): seats of the account its grants' logins may spend here. */
static napi_value js_lend(napi_env env, napi_callback_info info) {
  double values[2];
  io_t *io = handle_numbers(env, info, 2, values, "lend(handle, account, seats)");
  if (!io || values[0] < 0 || values[0] > UINT32_MAX || values[1] < 0) {
    if (io) napi_throw_range_error(env, NULL, "lend(handle, account, seats)");
    return NULL;
  }
  uint32_t account = (uint32_t)values[0];
  int64_t seats = (int64_t)values[1];
  pthread_mutex_lock(&io->lock);
  if (account >= io->seats_cap) {
    size_t cap = io->seats_cap ? io->seats_cap : 256;
    while (cap <= account) cap *= 2;
    int64_t *grown = realloc(io->seats, cap * sizeof *grown);
    if (!grown) {
      pthread_mutex_unlock(&io->lock);
      return throw_errno(env, "lend", ENOMEM);
    }
    memset(grown + io->seats_cap, 0, (cap - io->seats_cap) * sizeof *grown);
    io->seats = grown;
    io->seats_cap = cap;
  }
  io->seats[account] += seats;
  pthread_mutex_unlock(&io->lock);
  return NULL;
}

/* reclaim(handle, account: number): number — the account's seats not spent here, no longer lent. */
static napi_value js_reclaim(napi_env env, napi_callback_info info) {
  double value;
  io_t *io = handle_numbers(env, info, 1, &value, "reclaim(handle, account)");
  if (!io) return NULL;
  uint64_t account = value < 0 ? UINT64_MAX : (uint64_t)value;
  double seats = 0;
  pthread_mutex_lock(&io->lock);
  if (account < io->seats_cap) {
    seats = (double)io->seats[account];
    io->seats[account] = 0;
  }
  pthread_mutex_unlock(&io->lock);
  return number(env, seats);
}

/* suspect(handle, address: string, held: boolean): the login throttle holds failures for the address, or no more. */
static napi_value js_suspect(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  io_t *io = argc == 3 ? io_of(env, argv[0]) : NULL;
  char address[INET6_ADDRSTRLEN];
  size_t len;
  bool held;
  if (!io || napi_get_value_string_latin1(env, argv[1], address, sizeof address, &len) != napi_ok ||
      napi_get_value_bool(env, argv[2], &held) != napi_ok) {
    napi_throw_type_error(env, NULL, "suspect(handle, address, held)");
    return NULL;
  }
  pthread_mutex_lock(&io->lock);
  watched_t **slot = &io->watched[hash_bytes(address, (uint32_t)len) % BUCKETS];
  while (*slot && !((*slot)->len == len && memcmp((*slot)->address, address, len) == 0)) slot = &(*slot)->next;
  if (held && !*slot) {
    watched_t *w = io->watched_count < WATCHED_MAX ? malloc(sizeof *w + len + 1) : NULL;
    if (w) {
      w->next = NULL;
      w->len = (uint32_t)len;
      memcpy(w->address, address, len + 1);
      *slot = w;
      io->watched_count++;
    } else {
      io->watched_over++;
    }
  } else if (!held && *slot) {
    watched_t *w = *slot;
    *slot = w->next;
    free(w);
    io->watched_count--;
  } else if (!held && io->watched_over) {
    io->watched_over--;
  }
  pthread_mutex_unlock(&io->lock);
  return NULL;
}

/* The handle of a call that takes nothing else. */
static io_t *handle_arg(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  return argc < 1 ? NULL : io_of(env, argv[0]);
}

/* unlisten(handle): takes no more connections; those open stay. */
static napi_value js_unlisten(napi_env env, napi_callback_info info) {
  io_t *io = handle_arg(env, info);
  if (!io) return NULL;
  pthread_mutex_lock(&io->lock);
  if (io->listen_fd >= 0) {
    epoll_ctl(io->epoll_fd, EPOLL_CTL_DEL, io->listen_fd, NULL);
    close(io->listen_fd);
    io->listen_fd = -1;
  }
  pthread_mutex_unlock(&io->lock);
  return NULL;
}

/* stop(handle): closes every connection and the port, and ends the thread. */
static napi_value js_stop(napi_env env, napi_callback_info info) {
  io_t *io = handle_arg(env, info);
  if (!io) return NULL;
  stop_io(io);
  return NULL;
}

NAPI_MODULE_INIT() {
  static const struct {
    const char *name;
    napi_callback fn;
  } fns[] = {{"open", js_open},   {"listen", js_listen},     {"write", js_write}, {"rover", js_rover},
             {"close", js_close}, {"detach", js_detach}, {"unlisten", js_unlisten}, {"stop", js_stop},
             {"grant", js_grant}, {"forget", js_forget}, {"lend", js_lend},     {"reclaim", js_reclaim},
             {"suspect", js_suspect}};
  for (size_t i = 0; i < sizeof fns / sizeof fns[0]; i++) {
    napi_value fn;
    napi_create_function(env, fns[i].name, NAPI_AUTO_LENGTH, fns[i].fn, NULL, &fn);
    napi_set_named_property(env, exports, fns[i].name, fn);
  }
  return exports;
}
