/*
 * Relay fan-out through io_uring: one frame written to many rover sockets with one system call.
 *
 * On this project's virtual machines a system call costs several microseconds on its own, and a frame
 * goes to thousands of sockets, so submitting all sends at once saves about a third of the fan-out
 * (docs/performance.md). The call is synchronous: it returns only when every send has completed, so a
 * descriptor is never written after JavaScript has given it back, and nothing is queued in the kernel
 * behind Node's own writes. MSG_DONTWAIT makes a full socket answer -EAGAIN instead of waiting; the
 * caller hands the bytes a socket did not take to Node's stream.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/io_uring.h>
#include <node_api.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#define RING_ENTRIES 1024

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

static int ring_open(ring_t **out) {
  struct io_uring_params p;
  memset(&p, 0, sizeof p);
  /* SUBMIT_ALL: an entry that fails does not stop the ones after it, so every send gets a completion. */
  p.flags = IORING_SETUP_SUBMIT_ALL;
  int fd = (int)syscall(__NR_io_uring_setup, RING_ENTRIES, &p);
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

/* send(fds: Int32Array, count: number, data: Uint8Array, results: Int32Array): void */
static napi_value js_send(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4];
  ring_t *r;
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  napi_get_instance_data(env, (void **)&r);
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
  if (r->broken) {
    napi_throw_error(env, NULL, "io_uring ring closed after an earlier failure");
    return NULL;
  }
  for (uint32_t from = 0; from < count; from += r->entries) {
    uint32_t n = count - from < r->entries ? count - from : r->entries;
    int err = ring_send_batch(r, fds, from, n, data, (uint32_t)data_len, results);
    if (err) {
      close(r->fd);
      r->fd = -1;
      r->broken = 1;
      return throw_errno(env, "io_uring_enter", err);
    }
  }
  return NULL;
}

static void finalize_ring(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  ring_close(data);
}

NAPI_MODULE_INIT() {
  ring_t *r = NULL;
  int err = ring_open(&r);
  if (err) return throw_errno(env, "io_uring_setup", err);
  napi_set_instance_data(env, r, finalize_ring, NULL);
  napi_value fn;
  napi_create_function(env, "send", NAPI_AUTO_LENGTH, js_send, NULL, &fn);
  napi_set_named_property(env, exports, "send", fn);
  return exports;
}
