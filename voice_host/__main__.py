from voice_host.cli import main

raise SystemExit(main())
