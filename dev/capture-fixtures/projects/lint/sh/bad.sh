#!/bin/bash
# lint fixture: errors, warnings, info and style
unused_var=1
files=`ls`
echo $files
if [ $1 == "x" ]; then echo yes; fi
cd /tmp
echo "${arr[@]"
