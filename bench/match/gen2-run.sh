#!/usr/bin/env bash
# Generation 2 matches: net 2 (eval-file) vs net 1 (built in), and net 2 vs classic; one binary.
cd /work/gen2/m
D=/work/bin/damas-net1
B=/work/main/bench/fmjd64-150-ballots.txt
run() {  # name opponent-args...
  local name="$1"; shift
  date > $name.txt
  /usr/bin/time -v $D match -engine cmd=$D args=hub name=net2 option.eval-file=/work/gen2/net2.dnn \
      "$@" -each tc=1+0.01 timemargin=300 option.move-overhead=30 \
      -openings file=$B -rounds 500 -concurrency 1 \
      -pdnout $name.pdn -log $name.log >> $name.txt 2>&1
  date >> $name.txt
}
run net2-net1 -engine cmd=$D args=hub name=net1 &
run net2-classic -engine cmd=$D args=hub name=classic option.eval=classic &
wait
