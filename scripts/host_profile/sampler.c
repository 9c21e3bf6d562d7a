/* A CPU-time sampler for machines without perf or gperftools (the GPU machine has neither and no
 * network): LD_PRELOAD it with SAMPLE_OUT=<file> set; every 50 us of the process's CPU time
 * (ITIMER_PROF: the kernel's tick bounds the real rate) SIGPROF records up to 8 return addresses
 * (glibc backtrace), written at exit as "<object>+0x<offset>" per frame, one sample per line, for
 * resolve.py. Blocked time (a synchronous copy waiting for the GPU) is not CPU time: compare the
 * wall time per call with the samples. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <execinfo.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>

enum { kMaxSamples = 400000, kFrames = 8 };
static void *samples[kMaxSamples][kFrames];
static int count;

static void on_sample(int signal_number) {
  (void)signal_number;
  if (count >= kMaxSamples) return;
  void *trace[kFrames + 2];
  int const n = backtrace(trace, kFrames + 2);
  for (int i = 0; i < kFrames; ++i) samples[count][i] = i + 2 < n ? trace[i + 2] : 0;   /* skip the handler */
  ++count;
}

__attribute__((constructor)) static void start(void) {
  if (!getenv("SAMPLE_OUT")) return;
  void *warm[4];
  backtrace(warm, 4);   /* loads libgcc's unwinder now, not inside the signal handler */
  struct sigaction action = {0};
  action.sa_handler = on_sample;
  action.sa_flags = SA_RESTART;
  sigaction(SIGPROF, &action, 0);
  struct itimerval timer = {{0, 50}, {0, 50}};
  setitimer(ITIMER_PROF, &timer, 0);
}

__attribute__((destructor)) static void stop(void) {
  char const *path = getenv("SAMPLE_OUT");
  if (!path) return;
  struct itimerval off = {{0, 0}, {0, 0}};
  setitimer(ITIMER_PROF, &off, 0);
  FILE *out = fopen(path, "w");
  if (!out) return;
  for (int s = 0; s < count; ++s) {
    for (int f = 0; f < kFrames; ++f) {
      Dl_info info;
      void *address = samples[s][f];
      if (address && dladdr(address, &info) && info.dli_fname) {
        fprintf(out, "%s+0x%lx ", info.dli_fname, (unsigned long)((char *)address - (char *)info.dli_fbase));
      } else {
        fprintf(out, "? ");
      }
    }
    fprintf(out, "\n");
  }
  fclose(out);
}
