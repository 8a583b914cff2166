#!/bin/sh
# lint fixture: warning + info + style, no error
unused=1
out=`date`
echo $out
echo $((${#out}))
