module softmaxdemo

go 1.26

require github.com/maxence-charriere/go-app/v10 v10.1.11 // indirect
