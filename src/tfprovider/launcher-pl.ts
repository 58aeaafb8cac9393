// The provider package's first launcher, in Perl: what Terraform starts, three or four
// times per command, when Perl is on PATH. Node's own start takes about 60 ms on a
// 2-core machine before any of our code runs (`node -e 0`), and Terraform waits for each
// start's handshake line in turn; Perl starts in a few. This script does only the
// common case of daemon-launcher.ts: find the running provider daemon of this start's
// environment, ask it for a session, print the session's handshake line, relay its logs
// to stderr and exit when it ends. Anything else (no daemon yet, no private cache
// directory, a value it would read differently from Node, a refusal) it hands, before
// printing anything, to the Node launcher by exec'ing it, which then starts the daemon or
// serves the start itself, as without this script; a daemon that does not answer within
// 10 s, to the Node launcher with the daemon off, so that the start waits only once.
//
// It writes daemonIdentity's text byte for byte (the daemon compares the two and serves
// only its own), and an ODS_PROVIDER_STATS line like the Node launcher's. Only modules
// of Debian's perl-base (an Essential package), so it runs wherever Perl does.
//
// Arguments: NODE BUNDLE BUNDLE_SHA256 [ARGS...] (the shim writes the bundle's digest
// when the package is built; ARGS go to node on a fallback).

import { IDENTITY_HASH, IDENTITY_VERSION, MAX_SOCKET_PATH, PER_START_NAMES, PER_START_PREFIX, SESSION_OPEN_TIMEOUT_MS } from "./daemon-identity";
import { APP_PROTOCOL_VERSION, MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE } from "./protocol/handshake";

const hex = (n: number): string => `0x${n.toString(16).padStart(8, "0")}`;

/** The script's text, as the package holds it (launcher.pl), with the shared rules' values written in. */
export const PERL_LAUNCHER = String.raw`#!/usr/bin/perl
# terraform-provider-ods: hands this start to the provider daemon of its environment
# without starting Node, or execs the Node launcher (see launcher-pl.ts in the sources).
use strict;
use warnings;
use Socket qw(AF_UNIX SOCK_STREAM pack_sockaddr_un);
use Cwd ();
use POSIX ();

my ($node, $bundle, $bundle_sha, @rest) = @ARGV;
my $tick = POSIX::sysconf(POSIX::_SC_CLK_TCK()) || 100;
my ($t0) = POSIX::times();
my $handshook = 0;

sub node_launcher {
  die "handshake already sent\n" if $handshook;
  no warnings 'exec'; # the lines after exec run only when it failed
  exec { $node } $node, $bundle, @rest;
  print STDERR "terraform-provider-ods: cannot run $node: $!\n";
  exit 1;
}

sub clean_absolute {
  my ($p) = @_;
  return 0 unless defined $p && $p =~ m{^/};
  return 0 if $p =~ m{//} || $p =~ m{(?:^|/)\.\.?(?:/|$)};
  return 1;
}

sub json_string {
  my ($s) = @_;
  $s =~ s/(["\\])/\\$1/g;
  $s =~ s/([\x00-\x1f])/sprintf('\\u%04x', ord($1))/ge;
  return '"' . $s . '"';
}

sub code_point {
  my ($c) = @_;
  return chr($c) if $c < 0x80;
  return "\xef\xbf\xbd" if $c >= 0xd800 && $c <= 0xdfff;
  my $ch = chr($c);
  utf8::encode($ch);
  return $ch;
}

my %ESCAPES = (n => "\n", t => "\t", r => "\r", b => "\b", f => "\f");
sub json_text {
  my ($s) = @_;
  $s =~ s{\\(?:u([0-9a-fA-F]{4})|(.))}{defined $1 ? code_point(hex $1) : ($ESCAPES{$2} // $2)}ge;
  return $s;
}

sub ms { my ($ticks) = @_; return $ticks * 1000 / $tick; }

my $STRING = qr/"((?:[^"\\]|\\.)*)"/;
my $daemon_pid = 0;
my $handshake_ms = 0;

sub session {
  # Terraform's go-plugin contract, as checkLaunchEnvironment reads it.
  node_launcher() unless ($ENV{${MAGIC_COOKIE_KEY}} // '') eq '${MAGIC_COOKIE_VALUE}';
  node_launcher() unless grep { $_ eq '${APP_PROTOCOL_VERSION}' } map { my $v = $_; $v =~ s/^\s+|\s+$//g; $v } split /,/, ($ENV{PLUGIN_PROTOCOL_VERSIONS} // '');
  my $daemon = $ENV{ODS_PROVIDER_DAEMON} // '';
  node_launcher() unless $daemon eq '' || ($daemon =~ /^\d{1,6}$/ && $daemon != 0);

  # The provider's cache directory, as checkJournalDir finds it; only a clean absolute
  # path, which Node's path functions leave as it is.
  my $dir = $ENV{ODS_PROVIDER_CACHE_DIR} // '';
  if ($dir eq '') {
    my $tmp = $ENV{TMPDIR} || $ENV{TMP} || $ENV{TEMP} || '/tmp';
    $tmp =~ s{/$}{} if length($tmp) > 1;
    $dir = ($tmp eq '/' ? '' : $tmp) . "/ods-provider-$<";
  }
  node_launcher() unless clean_absolute($dir) && $dir !~ m{/$};
  my @dir_stat = lstat($dir) or node_launcher();
  node_launcher() unless -d _ && $dir_stat[4] == $< && ($dir_stat[2] & 077) == 0;

  # The node the Node launcher would run as, resolved as process.execPath is.
  my $exe = $node;
  if ($exe !~ m{/}) {
    ($exe) = grep { -f $_ && -x _ } map { ($_ eq '' ? '.' : $_) . "/$node" } split /:/, ($ENV{PATH} // ''), -1;
    node_launcher() unless defined $exe;
  }
  $exe = Cwd::abs_path($exe);
  my $cwd = Cwd::getcwd();
  my @here = stat('.');
  node_launcher() unless defined $exe && defined $cwd && @here;

  my %per_start = map { $_ => 1 } (${PER_START_NAMES.map((n) => `'${n}'`).join(", ")});
  my @vars = sort grep { !/^${PER_START_PREFIX}/ && !$per_start{$_} } keys %ENV;
  my $identity = join("\n", '${IDENTITY_VERSION}', "node $exe", 'flags ', "bundle $bundle_sha", "cwd $cwd", "dir $here[0]:$here[1]", 'env') . "\n"
    . join('', map { "$_=$ENV{$_}\0" } @vars);
  my ($h1, $h2) = (${IDENTITY_HASH.bases.map(hex).join(", ")});
  {
    use integer;
    for my $byte (unpack('C*', $identity)) {
      $h1 = (($h1 ^ $byte) * ${hex(IDENTITY_HASH.prime)}) & 0xffffffff;
      $h2 = (($h2 ^ $byte) * ${hex(IDENTITY_HASH.prime)}) & 0xffffffff;
    }
  }
  my $socket_path = sprintf('%s/daemon-%08x%08x.sock', $dir, $h1, $h2);
  node_launcher() if length($socket_path) > ${MAX_SOCKET_PATH};

  socket(my $conn, AF_UNIX, SOCK_STREAM, 0) or node_launcher();
  connect($conn, pack_sockaddr_un($socket_path)) or node_launcher();
  my $cert = $ENV{PLUGIN_CLIENT_CERT} // '';
  my $tls = ($ENV{TF_DISABLE_PLUGIN_TLS} // '') eq '' && $cert ne '';
  my $socket_dir = $ENV{PLUGIN_UNIX_SOCKET_DIR} // '';
  my $request = '{"clientCertPem":' . ($tls ? json_string($cert) : 'null')
    . ($socket_dir ne '' ? ',"socketDir":' . json_string($socket_dir) : '')
    . ',"identity":' . json_string($identity) . "}\n";
  while (length $request) {
    my $n = syswrite($conn, $request);
    node_launcher() unless defined $n;
    substr($request, 0, $n) = '';
  }

  local $SIG{ALRM} = sub { die "no session\n" };
  alarm ${SESSION_OPEN_TIMEOUT_MS / 1000};
  my $buffer = '';
  while (1) {
    my $n = sysread($conn, $buffer, 65536, length $buffer);
    if (!$n) {
      node_launcher() unless $handshook;
      print STDERR "[ERROR] provider.ods: the provider daemon serving this start stopped before Terraform ended the session\n";
      exit 1;
    }
    while ((my $nl = index($buffer, "\n")) >= 0) {
      my $line = substr($buffer, 0, $nl + 1, '');
      chomp $line;
      if (!$handshook && $line =~ /^\{"handshake":$STRING,"pid":(\d+)\}$/) {
        alarm 0;
        $handshook = 1;
        $daemon_pid = $2;
        my $handshake = json_text($1);
        syswrite(STDOUT, "$handshake\n");
        $handshake_ms = ms((POSIX::times())[0] - $t0);
        # Terraform stops a provider with Shutdown (which ends the session) and kills it
        # after a grace period; SIGTERM ends the session from our side.
        $SIG{TERM} = sub { exit 0 };
        $SIG{INT} = 'IGNORE';
      } elsif ($line =~ /^\{"log":$STRING\}$/) {
        syswrite(STDERR, json_text($1));
      } elsif ($line =~ /^\{"error":$STRING\}$/) {
        syswrite(STDERR, '[WARN] provider.ods: ' . json_text($1) . "\n");
      } elsif ($line =~ /^\{"refused":$STRING\}$/) {
        node_launcher() unless $handshook;
      } elsif ($handshook && $line =~ /^\{"end":0,"cpuMs":([-0-9.eE+]+),"rpcs":(\{.*\})\}$/) {
        my ($session_cpu, $rpcs) = ($1, $2);
        if (defined $ENV{ODS_PROVIDER_STATS} && $ENV{ODS_PROVIDER_STATS} ne '') {
          my ($now, $user, $system) = POSIX::times();
          my $stats = sprintf('{"pid":%d,"handshakeMs":%.3f,"lifeMs":%.3f,"cpuMs":%.3f,"rpcs":%s,"daemonPid":%d,"sessionCpuMs":%s}' . "\n",
            $$, $handshake_ms, ms($now - $t0), ms($user + $system) + $session_cpu, $rpcs, $daemon_pid, $session_cpu);
          if (open(my $out, '>>', $ENV{ODS_PROVIDER_STATS})) {
            syswrite($out, $stats);
            close($out);
          }
        }
        exit 0;
      }
    }
  }
}

$SIG{PIPE} = 'IGNORE';
eval { session(); 1 } or do {
  my $why = $@ || 'unknown';
  if ($handshook) {
    print STDERR "[ERROR] provider.ods: $why";
    exit 1;
  }
  # A daemon that took the request and did not answer in time would hold the Node
  # launcher just as long again: it serves this start itself.
  $ENV{ODS_PROVIDER_DAEMON} = 'off' if $why eq "no session\n";
  node_launcher();
};
`;
