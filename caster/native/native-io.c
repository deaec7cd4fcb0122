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
#include <time.h>
#include <unistd.h>

/* What a connection is doing. */
enum { READING = 1, HANDED, ROVER, ENDED, CLOSING };
/* Records handed to JavaScript. */
enum { EV_HEAD = 1, EV_TIMEOUT, EV_DATA, EV_END, EV_DRAINED };

#define LISTEN_TAG UINT64_MAX
#define WAKE_TAG (UINT64_MAX - 1)
#define FD_BITS 24
#define READ_CHUNK 4096
#define PROXY_V1_MAX 108

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
  conn_t *due_first, *due_last;
  batch_t batch;
  /* A batch handed to JavaScript and not yet taken: the next waits and grows meanwhile. */
  int in_flight;
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

/* A record: type u8, peer length u8, 2 spare, fd i32, id f64, payload length u32, 4 spare; peer; payload. */
static void emit(io_t *io, int type, conn_t *c, const char *peer, const void *payload, uint32_t len) {
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
  if (peer_len) memcpy(p + 24, peer, peer_len);
  if (len) memcpy(p + 24 + peer_len, payload, len);
  io->batch.len += 24 + peer_len + len;
}

static void due_remove(io_t *io, conn_t *c) {
  if (c->prev_due) c->prev_due->next_due = c->next_due;
  else if (io->due_first == c) io->due_first = c->next_due;
  if (c->next_due) c->next_due->prev_due = c->prev_due;
  else if (io->due_last == c) io->due_last = c->prev_due;
  c->next_due = c->prev_due = NULL;
}

static void conn_free(io_t *io, conn_t *c) {
  due_remove(io, c);
  if ((size_t)c->fd < io->conns_cap && io->conns[c->fd] == c) io->conns[c->fd] = NULL;
  free(c->head);
  free(c->out);
  free(c);
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

static void read_head(io_t *io, conn_t *c) {
  for (;;) {
    ssize_t n = recv(c->fd, c->head + c->head_len, c->head_cap - c->head_len, 0);
    if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
      /* Gone before its head was read: JavaScript never knew of it. */
      conn_close(io, c, 0);
      return;
    }
    if (n < 0) {
      if (errno == EINTR) continue;
      return;
    }
    c->head_len += (uint32_t)n;
    if (head_ready(io, c)) {
      due_remove(io, c);
      c->state = HANDED;
      watch(io, c, EPOLLRDHUP);
      emit(io, EV_HEAD, c, c->peer, c->head, c->head_len);
      free(c->head);
      c->head = NULL;
      return;
    }
  }
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
    struct sockaddr_storage addr;
    socklen_t addr_len = sizeof addr;
    int fd = accept4(io->listen_fd, (struct sockaddr *)&addr, &addr_len, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) return;
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
    char *head = malloc(io->max_head + 1024);
    if (!c || !head) {
      free(c);
      free(head);
      close(fd);
      continue;
    }
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    c->id = ++io->next_id;
    c->fd = fd;
    c->state = READING;
    c->head = head;
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
  struct epoll_event events[256];
  while (!io->stopping) {
    pthread_mutex_lock(&io->lock);
    int timeout = -1;
    if (io->due_first) {
      int64_t wait = io->due_first->due_ms - now_ms();
      timeout = wait < 0 ? 0 : (int)wait;
    }
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

static napi_value throw_errno(napi_env env, const char *what, int err) {
  char message[160];
  snprintf(message, sizeof message, "%s: %s", what, strerror(err));
  napi_throw_error(env, NULL, message);
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
  pthread_mutex_destroy(&io->lock);
  free(io);
}

static io_t *io_of(napi_env env, napi_value value) {
  void *io = NULL;
  if (napi_get_value_external(env, value, &io) != napi_ok || !io) napi_throw_type_error(env, NULL, "not a native I/O handle");
  return io;
}

/* open(maxHeadBytes: number, headerTimeoutMs: number, onBatch: (batch: Buffer) => void): handle */
static napi_value js_open(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  uint32_t max_head, timeout;
  if (argc < 3 || napi_get_value_uint32(env, argv[0], &max_head) != napi_ok ||
      napi_get_value_uint32(env, argv[1], &timeout) != napi_ok) {
    napi_throw_type_error(env, NULL, "open(maxHeadBytes, headerTimeoutMs, onBatch)");
    return NULL;
  }
  io_t *io = calloc(1, sizeof *io);
  if (!io) return throw_errno(env, "open", ENOMEM);
  io->max_head = max_head;
  io->header_timeout_ms = timeout;
  io->listen_fd = -1;
  pthread_mutex_init(&io->lock, NULL);
  io->epoll_fd = epoll_create1(EPOLL_CLOEXEC);
  io->wake_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (io->epoll_fd < 0 || io->wake_fd < 0) {
    int err = errno;
    if (io->epoll_fd >= 0) close(io->epoll_fd);
    if (io->wake_fd >= 0) close(io->wake_fd);
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
    free(io);
    napi_throw_error(env, NULL, "napi_create_threadsafe_function failed");
    return NULL;
  }
  if (pthread_create(&io->thread, NULL, io_thread, io) != 0) {
    int err = errno;
    napi_release_threadsafe_function(io->tsfn, napi_tsfn_abort);
    close(io->epoll_fd);
    close(io->wake_fd);
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
    size_t sent = 0;
    if (c->out_len == c->out_off) {
      for (;;) {
        ssize_t n = send(fd, data, len, MSG_DONTWAIT | MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR) continue;
        if (n >= 0) sent = (size_t)n;
        else if (errno != EAGAIN) sent = SIZE_MAX;
        break;
      }
    }
    if (sent == SIZE_MAX) queued = -1;
    else if (sent == len) queued = 0;
    else {
      size_t rest = len - sent;
      if (c->out_len + rest > c->out_cap) {
        size_t cap = c->out_cap ? c->out_cap : 16384;
        while (cap < c->out_len + rest) cap *= 2;
        char *out = realloc(c->out, cap);
        if (out) {
          c->out = out;
          c->out_cap = cap;
        }
      }
      if (c->out_len + rest <= c->out_cap) {
        memcpy(c->out + c->out_len, (char *)data + sent, rest);
        c->out_len += rest;
        queued = (double)rest;
        watch(io, c, events_of(c));
      }
    }
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
             {"close", js_close}, {"detach", js_detach}, {"unlisten", js_unlisten}, {"stop", js_stop}};
  for (size_t i = 0; i < sizeof fns / sizeof fns[0]; i++) {
    napi_value fn;
    napi_create_function(env, fns[i].name, NAPI_AUTO_LENGTH, fns[i].fn, NULL, &fn);
    napi_set_named_property(env, exports, fns[i].name, fn);
  }
  return exports;
}
