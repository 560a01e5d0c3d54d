import EarshotCLI

Earshot.main()
