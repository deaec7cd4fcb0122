/*
 * Relay fan-out through io_uring: one frame written to many rover sockets with one system call.
 *
 * On this project's virtual machines a system call costs several microseconds on its own, and a frame
 * goes to thousands of sockets, so submitting all sends at once saves about a third of the fan-out
 * (docs/performance.md). The call is synchronous: it returns only when every send has completed, so a
 * descriptor is never written after JavaScript has given it back, and nothing is queued in the kernel
 * behind Node's own writes. MSG_DONTWAIT makes a full socket answer -EAGAIN instead of waiting; the
 * caller hands the bytes a socket did not take to Node's stream.
 *
 * The sends of one frame can be shared with helper threads, each with its own ring (ADR 0094): the kernel's
 * work per send (the TCP send and, on loopback, the receive path inside it) then runs on more than one core.
 * The calling thread takes slices of the rovers as the helpers do, so a helper that is slow to wake only
 * leaves it more to do, and it still returns only when every slice is done.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/io_uring.h>
#include <node_api.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#define RING_ENTRIES 1024
/* Rovers per slice a thread takes: small enough that two threads end together, large enough that one
 * io_uring_enter and a lock per slice cost nothing next to its sends (several microseconds each). */
#define SLICE 64
#define MAX_HELPERS 15

typedef struct {
  int fd;
  /* Set when io_uring_enter failed: entries may be left in the ring, so it is closed and never used again. */
  int broken;
  unsigned entries;
  unsigned *sq_tail, *sq_mask, *sq_array;
  unsigned *cq_head, *cq_tail, *cq_mask;
  struct io_uring_sqe *sqes;
  struct io_uring_cqe *cqes;
  void *sq_map, *cq_map;
  size_t sq_map_size, cq_map_size, sqes_size;
} ring_t;

static void ring_close(ring_t *r) {
  if (r->sqes) munmap(r->sqes, r->sqes_size);
  if (r->cq_map && r->cq_map != r->sq_map) munmap(r->cq_map, r->cq_map_size);
  if (r->sq_map) munmap(r->sq_map, r->sq_map_size);
  if (r->fd >= 0) close(r->fd);
  free(r);
}

static int ring_open(ring_t **out, unsigned entries) {
  struct io_uring_params p;
  memset(&p, 0, sizeof p);
  /* SUBMIT_ALL: an entry that fails does not stop the ones after it, so every send gets a completion. */
  p.flags = IORING_SETUP_SUBMIT_ALL;
  int fd = (int)syscall(__NR_io_uring_setup, entries, &p);
  if (fd < 0) return errno;
  ring_t *r = calloc(1, sizeof *r);
  if (!r) {
    close(fd);
    return ENOMEM;
  }
  r->fd = fd;
  r->entries = p.sq_entries;
  r->sq_map_size = p.sq_off.array + p.sq_entries * sizeof(unsigned);
  r->cq_map_size = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
  int single = (p.features & IORING_FEAT_SINGLE_MMAP) != 0;
  if (single && r->cq_map_size > r->sq_map_size) r->sq_map_size = r->cq_map_size;
  r->sq_map = mmap(NULL, r->sq_map_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, IORING_OFF_SQ_RING);
  if (r->sq_map == MAP_FAILED) {
    r->sq_map = NULL;
    goto fail;
  }
  if (single) {
    r->cq_map = r->sq_map;
  } else {
    r->cq_map = mmap(NULL, r->cq_map_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, IORING_OFF_CQ_RING);
    if (r->cq_map == MAP_FAILED) {
      r->cq_map = NULL;
      goto fail;
    }
  }
  r->sqes_size = p.sq_entries * sizeof(struct io_uring_sqe);
  r->sqes = mmap(NULL, r->sqes_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, IORING_OFF_SQES);
  if (r->sqes == MAP_FAILED) {
    r->sqes = NULL;
    goto fail;
  }
  char *sq = r->sq_map, *cq = r->cq_map;
  r->sq_tail = (unsigned *)(sq + p.sq_off.tail);
  r->sq_mask = (unsigned *)(sq + p.sq_off.ring_mask);
  r->sq_array = (unsigned *)(sq + p.sq_off.array);
  r->cq_head = (unsigned *)(cq + p.cq_off.head);
  r->cq_tail = (unsigned *)(cq + p.cq_off.tail);
  r->cq_mask = (unsigned *)(cq + p.cq_off.ring_mask);
  r->cqes = (struct io_uring_cqe *)(cq + p.cq_off.cqes);
  *out = r;
  return 0;
fail: {
  int err = errno;
  ring_close(r);
  return err;
}
}

/* Submits fds[from, from + n) and waits for all their completions; results[i] gets bytes sent or -errno. */
static int ring_send_batch(ring_t *r, const int32_t *fds, uint32_t from, uint32_t n, const void *data,
                           uint32_t len, int32_t *results) {
  unsigned tail = *r->sq_tail;
  for (uint32_t i = 0; i < n; i++) {
    unsigned idx = tail & *r->sq_mask;
    struct io_uring_sqe *sqe = &r->sqes[idx];
    memset(sqe, 0, sizeof *sqe);
    sqe->opcode = IORING_OP_SEND;
    sqe->fd = fds[from + i];
    sqe->addr = (uint64_t)(uintptr_t)data;
    sqe->len = len;
    sqe->msg_flags = MSG_DONTWAIT | MSG_NOSIGNAL;
    sqe->user_data = from + i;
    r->sq_array[idx] = idx;
    tail++;
  }
  __atomic_store_n(r->sq_tail, tail, __ATOMIC_RELEASE);

  uint32_t to_submit = n, reaped = 0;
  while (reaped < n) {
    long ret = syscall(__NR_io_uring_enter, r->fd, to_submit, n - reaped, IORING_ENTER_GETEVENTS, NULL, 0);
    if (ret < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    to_submit -= (uint32_t)ret < to_submit ? (uint32_t)ret : to_submit;
    unsigned head = *r->cq_head, ctail = __atomic_load_n(r->cq_tail, __ATOMIC_ACQUIRE);
    for (; head != ctail; head++) {
      struct io_uring_cqe *cqe = &r->cqes[head & *r->cq_mask];
      results[cqe->user_data] = cqe->res;
      reaped++;
    }
    __atomic_store_n(r->cq_head, head, __ATOMIC_RELEASE);
  }
  return 0;
}

static napi_value throw_errno(napi_env env, const char *what, int err) {
  char message[160];
  snprintf(message, sizeof message, "%s: %s", what, strerror(err));
  napi_throw_error(env, NULL, message);
  return NULL;
}

static int typed_array(napi_env env, napi_value value, napi_typedarray_type want, void **data, size_t *length) {
  bool is;
  napi_typedarray_type type;
  if (napi_is_typedarray(env, value, &is) != napi_ok || !is) return 0;
  if (napi_get_typedarray_info(env, value, &type, length, data, NULL, NULL) != napi_ok) return 0;
  return type == want;
}

/*
 * The helpers and the frame they share. Guarded by `lock`: `next` is the first rover no thread has taken yet,
 * `done` how many have been sent; `work` wakes helpers for a new frame, `finished` the caller when `done` reaches
 * `count`.
 */
typedef struct {
  ring_t *ring;
  pthread_mutex_t lock;
  pthread_cond_t work, finished;
  const int32_t *fds;
  const void *data;
  uint32_t len;
  int32_t *results;
  uint32_t count, next, done;
  /* The first io_uring_enter failure of the frame, any thread's. */
  int err;
  int quit;
  unsigned helpers, started;
  pthread_t threads[MAX_HELPERS];
  /* Helpers whose ring could not be set up, and why. */
  int helper_err;
} addon_t;

/* Takes the next slice of the frame; false when none is left. Called with the lock held. */
static int take_slice(addon_t *a, uint32_t *from, uint32_t *n) {
  if (a->next >= a->count || a->err) return 0;
  *from = a->next;
  *n = a->count - a->next < SLICE ? a->count - a->next : SLICE;
  a->next += *n;
  return 1;
}

/* Sends one slice with `r` outside the lock and accounts for it; returns with the lock held. */
static void send_slice(addon_t *a, ring_t *r, uint32_t from, uint32_t n) {
  const int32_t *fds = a->fds;
  const void *data = a->data;
  uint32_t len = a->len;
  int32_t *results = a->results;
  pthread_mutex_unlock(&a->lock);
  int err = ring_send_batch(r, fds, from, n, data, len, results);
  pthread_mutex_lock(&a->lock);
  if (err && !a->err) a->err = err;
  a->done += n;
  /* Every slice taken is done: the caller may be waiting for that (after a failure, fewer than `count`). */
  if (a->done == a->next) pthread_cond_signal(&a->finished);
}

static void *helper_main(void *arg) {
  /* Named so a profile or /proc tells its CPU from the event loop's. */
  pthread_setname_np(pthread_self(), "caster-fanout");
  addon_t *a = arg;
  ring_t *r = NULL;
  /* A helper never takes more than a slice at once. */
  int err = ring_open(&r, SLICE);
  pthread_mutex_lock(&a->lock);
  if (err && !a->helper_err) a->helper_err = err;
  a->started++;
  pthread_cond_broadcast(&a->finished);
  while (!err) {
    uint32_t from, n;
    while (!a->quit && !take_slice(a, &from, &n)) pthread_cond_wait(&a->work, &a->lock);
    if (a->quit) break;
    send_slice(a, r, from, n);
  }
  pthread_mutex_unlock(&a->lock);
  if (r) ring_close(r);
  return NULL;
}

/* Every send of the frame, sliced between this thread and the helpers; returns the first failure. */
static int send_all(addon_t *a, const int32_t *fds, uint32_t count, const void *data, uint32_t len, int32_t *results) {
  if (a->helpers == 0 || count <= SLICE) {
    for (uint32_t from = 0; from < count; from += a->ring->entries) {
      uint32_t n = count - from < a->ring->entries ? count - from : a->ring->entries;
      int err = ring_send_batch(a->ring, fds, from, n, data, len, results);
      if (err) return err;
    }
    return 0;
  }
  pthread_mutex_lock(&a->lock);
  a->fds = fds;
  a->data = data;
  a->len = len;
  a->results = results;
  a->count = count;
  a->next = 0;
  a->done = 0;
  a->err = 0;
  pthread_cond_broadcast(&a->work);
  uint32_t from, n;
  while (take_slice(a, &from, &n)) send_slice(a, a->ring, from, n);
  /* After a failure no slice is taken any more; those already taken still complete. */
  while (a->done < a->next) pthread_cond_wait(&a->finished, &a->lock);
  int err = a->err;
  /* Nothing of this frame may be taken by a helper that wakes late. */
  a->count = 0;
  a->next = 0;
  pthread_mutex_unlock(&a->lock);
  return err;
}

static void stop_helpers(addon_t *a) {
  pthread_mutex_lock(&a->lock);
  a->quit = 1;
  pthread_cond_broadcast(&a->work);
  pthread_mutex_unlock(&a->lock);
  for (unsigned i = 0; i < a->helpers; i++) pthread_join(a->threads[i], NULL);
  a->helpers = 0;
  a->started = 0;
  a->quit = 0;
}

/* send(fds: Int32Array, count: number, data: Uint8Array, results: Int32Array): void */
static napi_value js_send(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4];
  addon_t *a;
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  napi_get_instance_data(env, (void **)&a);
  void *fds, *data, *results;
  size_t fds_len, data_len, results_len;
  uint32_t count;
  if (argc < 4 || !typed_array(env, argv[0], napi_int32_array, &fds, &fds_len) ||
      napi_get_value_uint32(env, argv[1], &count) != napi_ok ||
      !typed_array(env, argv[2], napi_uint8_array, &data, &data_len) ||
      !typed_array(env, argv[3], napi_int32_array, &results, &results_len) || count > fds_len ||
      count > results_len || data_len > UINT32_MAX) {
    napi_throw_type_error(env, NULL, "send(fds: Int32Array, count: number, data: Uint8Array, results: Int32Array)");
    return NULL;
  }
  if (a->ring->broken) {
    napi_throw_error(env, NULL, "io_uring ring closed after an earlier failure");
    return NULL;
  }
  int err = send_all(a, fds, count, data, (uint32_t)data_len, results);
  if (err) {
    stop_helpers(a);
    close(a->ring->fd);
    a->ring->fd = -1;
    a->ring->broken = 1;
    return throw_errno(env, "io_uring_enter", err);
  }
  return NULL;
}

/*
 * threads(n: number): number — how many threads share a frame's sends from now on, this one included (1: it
 * alone). Throws, leaving this thread alone, when a helper or its ring cannot be set up.
 */
static napi_value js_threads(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  addon_t *a;
  uint32_t want;
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  napi_get_instance_data(env, (void **)&a);
  if (argc < 1 || napi_get_value_uint32(env, argv[0], &want) != napi_ok || want < 1 || want > MAX_HELPERS + 1) {
    napi_throw_range_error(env, NULL, "threads(n): n from 1 to 16");
    return NULL;
  }
  stop_helpers(a);
  a->helper_err = 0;
  pthread_mutex_lock(&a->lock);
  for (unsigned i = 0; i + 1 < want; i++) {
    int created = pthread_create(&a->threads[a->helpers], NULL, helper_main, a);
    if (created) {
      if (!a->helper_err) a->helper_err = created;
      break;
    }
    a->helpers++;
  }
  while (a->started < a->helpers) pthread_cond_wait(&a->finished, &a->lock);
  int err = a->helper_err;
  pthread_mutex_unlock(&a->lock);
  if (err) {
    stop_helpers(a);
    return throw_errno(env, "fan-out helper thread", err);
  }
  napi_value out;
  napi_create_uint32(env, a->helpers + 1, &out);
  return out;
}

static void finalize_addon(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  addon_t *a = data;
  stop_helpers(a);
  ring_close(a->ring);
  pthread_mutex_destroy(&a->lock);
  pthread_cond_destroy(&a->work);
  pthread_cond_destroy(&a->finished);
  free(a);
}

NAPI_MODULE_INIT() {
  addon_t *a = calloc(1, sizeof *a);
  if (!a) return throw_errno(env, "fan-out", ENOMEM);
  int err = ring_open(&a->ring, RING_ENTRIES);
  if (err) {
    free(a);
    return throw_errno(env, "io_uring_setup", err);
  }
  pthread_mutex_init(&a->lock, NULL);
  pthread_cond_init(&a->work, NULL);
  pthread_cond_init(&a->finished, NULL);
  napi_set_instance_data(env, a, finalize_addon, NULL);
  napi_value fn;
  napi_create_function(env, "send", NAPI_AUTO_LENGTH, js_send, NULL, &fn);
  napi_set_named_property(env, exports, "send", fn);
  napi_create_function(env, "threads", NAPI_AUTO_LENGTH, js_threads, NULL, &fn);
  napi_set_named_property(env, exports, "threads", fn);
  return exports;
}
