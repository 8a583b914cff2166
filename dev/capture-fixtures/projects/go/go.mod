module example.com/capture

go 1.19
