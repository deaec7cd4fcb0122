{
  "targets": [
    {
      "target_name": "fanout",
      "sources": ["fanout.c"],
      "cflags": ["-O2", "-Wall", "-Wextra"]
    },
    {
      "target_name": "native_io",
      "sources": ["native-io.c"],
      "cflags": ["-O2", "-Wall", "-Wextra"],
      "libraries": ["-lpthread"]
    }
  ]
}
