/*
 * A load generator process in C for `npm run bench:caster`: the same rovers as rover-load.ts (alternately NTRIP 1
 * and NTRIP 2, frames cut by their length field, receive time minus the send time stamped in the payload), at a
 * fraction of its CPU. On the bench's machine the rovers share the caster's cores, so every microsecond a rover
 * spends reading is a microsecond the caster waits for; real rovers read on their own hosts.
 *
 * usage: rover-load PORT COUNT FIRST SPIN [MODE [RATE]]
 * MODE: "mixed" (the default: alternately NTRIP 1 and NTRIP 2), "v1" or "v2". RATE: connections opened per
 * second, without waiting for answers (a connection storm); 0, the default, keeps 100 logins outstanding at a time.
 * stdin, one command a line: "measure" (start afresh), "report PATH" (the samples so far to PATH as float64
 * pairs: send time, delay), "opens PATH" (per rover, as float64 pairs: when its connect began and how long until
 * its response header had arrived), "stop".
 * stdout: "connected N", "measuring", "report FRAMES DISCONNECTED CPU_MICROSECONDS SAMPLES", "error MESSAGE".
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAX_FRAME 1029
#define CONNECT_BATCH 100

enum phase { HEADER, STREAM };
enum chunk_state { SIZE, SIZE_LF, DATA, DATA_CR, DATA_LF };

struct rover {
  int fd;
  int v2;
  /* Waiting for a non-blocking connect to finish before the request can be sent. */
  int connecting;
  int chunked;
  double opened_at, answered_at;
  enum phase phase;
  char head[512];
  size_t head_len;
  enum chunk_state chunk;
  size_t chunk_left;
  uint8_t frame[2 * MAX_FRAME];
  size_t frame_len;
};

/* Opening at a rate (a storm): a rover the caster reset is counted, not fatal. */
static int storm;
static double *samples;
static size_t samples_len, samples_cap;
static long frames, disconnected;
static int measuring;
static long cpu_at_measure;

static long cpu_micros(void) {
  struct rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  return (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1000000L + usage.ru_utime.tv_usec + usage.ru_stime.tv_usec;
}

static void fail(const char *format, ...) {
  va_list args;
  va_start(args, format);
  printf("error ");
  vprintf(format, args);
  printf("\n");
  fflush(stdout);
  va_end(args);
  exit(1);
}

/* The bench stamps frames with process.hrtime, which is CLOCK_MONOTONIC: one clock for every process. */
static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void on_frame(const uint8_t *frame, size_t len, double received) {
  frames++;
  /* Only the bench's stamped frames (message type 1077, first byte 0x43): the 1005 it also sends carries no time. */
  if (!measuring || len < 13 || frame[3] != 0x43) return;
  double sent;
  memcpy(&sent, frame + 5, sizeof sent);
  if (samples_len + 2 > samples_cap) {
    samples_cap = samples_cap ? samples_cap * 2 : 65536;
    samples = realloc(samples, samples_cap * sizeof *samples);
    if (!samples) fail("out of memory");
  }
  samples[samples_len++] = sent;
  samples[samples_len++] = received - sent;
}

static void cut_frames(struct rover *r, const uint8_t *data, size_t len, double received) {
  while (len > 0) {
    size_t take = sizeof r->frame - r->frame_len;
    if (take > len) take = len;
    memcpy(r->frame + r->frame_len, data, take);
    r->frame_len += take;
    data += take;
    len -= take;
    size_t i = 0;
    while (i + 3 <= r->frame_len) {
      if (r->frame[i] != 0xd3) {
        i++;
        continue;
      }
      size_t total = 6 + (((r->frame[i + 1] & 0x03) << 8) | r->frame[i + 2]);
      if (i + total > r->frame_len) break;
      on_frame(r->frame + i, total, received);
      i += total;
    }
    memmove(r->frame, r->frame + i, r->frame_len - i);
    r->frame_len -= i;
  }
}

static int hex_value(uint8_t c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

static void dechunk(struct rover *r, const uint8_t *data, size_t len, double received) {
  size_t i = 0;
  while (i < len) {
    switch (r->chunk) {
    case SIZE: {
      uint8_t c = data[i++];
      int v = hex_value(c);
      if (v >= 0) r->chunk_left = r->chunk_left * 16 + v;
      else if (c == '\r') r->chunk = SIZE_LF;
      break;
    }
    case SIZE_LF:
      i++;
      r->chunk = r->chunk_left ? DATA : DATA_CR;
      break;
    case DATA: {
      size_t take = len - i < r->chunk_left ? len - i : r->chunk_left;
      cut_frames(r, data + i, take, received);
      i += take;
      r->chunk_left -= take;
      if (r->chunk_left == 0) r->chunk = DATA_CR;
      break;
    }
    case DATA_CR:
      i++;
      r->chunk = DATA_LF;
      break;
    case DATA_LF:
      i++;
      r->chunk = SIZE;
      break;
    }
  }
}

static void send_request(struct rover *r) {
  static const char auth[] = "Authorization: Basic YmVuY2g6YmVuY2g=\r\n"; /* bench:bench */
  char request[256];
  int n = r->v2 ? snprintf(request, sizeof request,
                           "GET /BENCH HTTP/1.1\r\nHost: 127.0.0.1\r\nNtrip-Version: Ntrip/2.0\r\n%s\r\n", auth)
                : snprintf(request, sizeof request, "GET /BENCH HTTP/1.0\r\nUser-Agent: NTRIP bench\r\n%s\r\n", auth);
  if (send(r->fd, request, n, MSG_NOSIGNAL) != n) fail("send: %s", strerror(errno));
}

/*
 * Non-blocking connect: in a storm the caster's accept queue may be full for a moment, and a blocking connect
 * would then hold every other rover of this process until the kernel retries the handshake.
 */
static void open_rover(int epoll, uint16_t port, int v2, struct rover *r) {
  memset(r, 0, sizeof *r);
  r->opened_at = now_ms();
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
  if (fd < 0) fail("socket: %s", strerror(errno));
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons(port)};
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  r->fd = fd;
  r->v2 = v2;
  if (connect(fd, (struct sockaddr *)&address, sizeof address) == 0) send_request(r);
  else if (errno == EINPROGRESS) r->connecting = 1;
  else fail("connect: %s", strerror(errno));
  struct epoll_event event = {.events = r->connecting ? EPOLLOUT : EPOLLIN, .data.ptr = r};
  if (epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &event) < 0) fail("epoll_ctl: %s", strerror(errno));
}

/* The connect finished: send the request and wait for the answer. Returns 1 when it failed (storms only). */
static int on_connected(int epoll, struct rover *r) {
  int error = 0;
  socklen_t size = sizeof error;
  getsockopt(r->fd, SOL_SOCKET, SO_ERROR, &error, &size);
  if (error && !storm) fail("connect: %s", strerror(error));
  if (error) {
    close(r->fd);
    r->fd = -1;
    return 1;
  }
  r->connecting = 0;
  send_request(r);
  struct epoll_event event = {.events = EPOLLIN, .data.ptr = r};
  if (epoll_ctl(epoll, EPOLL_CTL_MOD, r->fd, &event) < 0) fail("epoll_ctl: %s", strerror(errno));
  return 0;
}

/* Returns 1 when the rover's response header has just been accepted. */
static int on_readable(struct rover *r, uint8_t *buffer, size_t size) {
  ssize_t n = recv(r->fd, buffer, size, 0);
  double received = now_ms();
  if (n <= 0) {
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) return 0;
    if (r->phase == HEADER) {
      /* In a storm a connection the caster could not take in time is reset: that rover is counted unanswered. */
      if (!storm) fail("rover %d closed before its header", r->fd);
      close(r->fd);
      r->fd = -1;
      return 1;
    }
    disconnected++;
    close(r->fd);
    r->fd = -1;
    return 0;
  }
  if (r->phase == STREAM) {
    if (r->chunked) dechunk(r, buffer, n, received);
    else cut_frames(r, buffer, n, received);
    return 0;
  }
  size_t take = (size_t)n < sizeof r->head - 1 - r->head_len ? (size_t)n : sizeof r->head - 1 - r->head_len;
  memcpy(r->head + r->head_len, buffer, take);
  r->head_len += take;
  r->head[r->head_len] = 0;
  char *end = strstr(r->head, "\r\n\r\n");
  if (!end) return 0;
  if (strncmp(r->head, "ICY 200 OK", 10) != 0 && strncmp(r->head, "HTTP/1.1 200 OK", 15) != 0)
    fail("rover refused: %.80s", r->head);
  r->phase = STREAM;
  r->answered_at = received;
  /* The answer says how the stream comes: another caster may answer NTRIP 2 without chunked encoding. */
  r->chunked = strcasestr(r->head, "\r\ntransfer-encoding: chunked\r\n") != NULL;
  size_t header_bytes = (size_t)(end + 4 - r->head);
  size_t rest = r->head_len - header_bytes;
  if (rest) {
    const uint8_t *data = (const uint8_t *)r->head + header_bytes;
    if (r->chunked) dechunk(r, data, rest, received);
    else cut_frames(r, data, rest, received);
  }
  return 1;
}

static struct rover *rovers;
static int rover_count;

static void on_command(char *line) {
  if (strncmp(line, "measure", 7) == 0) {
    samples_len = 0;
    frames = 0;
    measuring = 1;
    cpu_at_measure = cpu_micros();
    printf("measuring\n");
    fflush(stdout);
  } else if (strncmp(line, "report ", 7) == 0) {
    char *path = line + 7;
    path[strcspn(path, "\n")] = 0;
    FILE *out = fopen(path, "wb");
    if (!out || fwrite(samples, sizeof *samples, samples_len, out) != samples_len || fclose(out) != 0)
      fail("cannot write %s", path);
    printf("report %ld %ld %ld %zu\n", frames, disconnected, cpu_micros() - cpu_at_measure, samples_len / 2);
    fflush(stdout);
  } else if (strncmp(line, "opens ", 6) == 0) {
    char *path = line + 6;
    path[strcspn(path, "\n")] = 0;
    FILE *out = fopen(path, "wb");
    if (!out) fail("cannot write %s", path);
    for (int i = 0; i < rover_count; i++) {
      double pair[2] = {rovers[i].opened_at, rovers[i].answered_at ? rovers[i].answered_at - rovers[i].opened_at : -1};
      if (fwrite(pair, sizeof pair, 1, out) != 1) fail("cannot write %s", path);
    }
    if (fclose(out) != 0) fail("cannot write %s", path);
    printf("opens %d\n", rover_count);
    fflush(stdout);
  } else if (strncmp(line, "stop", 4) == 0) {
    exit(0);
  }
}

int main(int argc, char **argv) {
  if (argc < 5 || argc > 7) fail("usage: rover-load PORT COUNT FIRST SPIN [MODE [RATE]]");
  uint16_t port = (uint16_t)atoi(argv[1]);
  int count = atoi(argv[2]);
  int first = atoi(argv[3]);
  int spin = atoi(argv[4]);
  const char *mode = argc > 5 ? argv[5] : "mixed";
  double rate = argc > 6 ? atof(argv[6]) : 0;
  storm = rate > 0;
  if (strcmp(mode, "mixed") && strcmp(mode, "v1") && strcmp(mode, "v2")) fail("MODE: mixed, v1 or v2");

  struct rlimit limit;
  getrlimit(RLIMIT_NOFILE, &limit);
  limit.rlim_cur = limit.rlim_max;
  setrlimit(RLIMIT_NOFILE, &limit);

  rovers = calloc(count, sizeof *rovers);
  rover_count = count;
  int epoll = epoll_create1(0);
  if (!rovers || epoll < 0) fail("set-up: %s", strerror(errno));
  struct epoll_event stdin_event = {.events = EPOLLIN, .data.ptr = NULL};
  epoll_ctl(epoll, EPOLL_CTL_ADD, STDIN_FILENO, &stdin_event);

  static uint8_t buffer[64 * 1024];
  static char command[4096];
  size_t command_len = 0;
  struct epoll_event events[256];
  int opened = 0, accepted = 0, announced = 0;
  double started = now_ms();
  for (;;) {
    /* At RATE, as many as are due by now; without, a batch of logins outstanding at a time. */
    int due = rate > 0 ? (int)((now_ms() - started) * rate / 1000) + 1 : accepted + CONNECT_BATCH;
    while (opened < count && opened < due) {
      int index = first + opened;
      int v2 = strcmp(mode, "v2") == 0 || (strcmp(mode, "mixed") == 0 && index % 2 == 1);
      open_rover(epoll, port, v2, &rovers[opened]);
      opened++;
    }
    if (accepted == count && !announced) {
      printf("connected %d\n", count);
      fflush(stdout);
      announced = 1;
    }
    /* SPIN keeps this process on its core instead of asleep in epoll, so a send never has to wake it. */
    /* During a storm, waking every millisecond opens the next rovers on time without spinning a core. */
    int timeout = spin && announced ? 0 : rate > 0 && opened < count ? 1 : -1;
    int n = epoll_wait(epoll, events, 256, timeout);
    if (n < 0 && errno != EINTR) fail("epoll_wait: %s", strerror(errno));
    for (int i = 0; i < n; i++) {
      struct rover *r = events[i].data.ptr;
      if (r) {
        if (r->fd >= 0 && r->connecting) accepted += on_connected(epoll, r);
        else if (r->fd >= 0) accepted += on_readable(r, buffer, sizeof buffer);
        continue;
      }
      ssize_t got = read(STDIN_FILENO, command + command_len, sizeof command - 1 - command_len);
      if (got <= 0) exit(0);
      command_len += got;
      command[command_len] = 0;
      char *newline;
      while ((newline = memchr(command, '\n', command_len))) {
        *newline = 0;
        on_command(command);
        size_t used = (size_t)(newline + 1 - command);
        memmove(command, newline + 1, command_len - used);
        command_len -= used;
      }
    }
  }
}
