# Scid's own XFCC procedures, headless, for tests/xfcc/test_scid_client.py.
#
#   tclsh driver.tcl CORRESPONDENCE_TCL WORKDIR FORM COMMAND ARGS...
#
# CORRESPONDENCE_TCL is Scid's tcl/tools/correspondence.tcl (Debian's scid-data installs it in
# /usr/share/scid/tcl/tools/). Its `namespace eval Xfcc {...}` block, the whole XFCC client, is
# read from that file as it is and evaluated unchanged; the rest of the file is Scid's Tk window,
# which needs tkscid's C core and a display. What the block calls outside itself is stubbed here:
# Tk's `tk windowingsystem` (the user agent), Scid's version variables, the splash screen, the
# configuration folder (WORKDIR), the console of the correspondence window (lines on stdout,
# prefixed CONSOLE) and Tk's message box (stdout, prefixed MESSAGEBOX).
#
# FORM "plain" sends Scid's own requests (::Xfcc::Receive, ::Xfcc::SendMove); "prefixed" replaces
# those two procedures by ones sending the same parameters with prefixed elements and a SOAPAction
# header, as newer clients do; everything that reads the answers stays Scid's.
#
# COMMAND fetch SERVER URI USER PASSWORD: ::Xfcc::ProcessAll into WORKDIR/inbox, then one line
#   STATE <name-id> <myTurn> <drawOffered> <mytime> <opptime> per game (minutes, from PrintStatus).
# COMMAND send SERVER URI USER PASSWORD GAMEID MOVECOUNT MOVE RESIGN ACCEPTDRAW OFFERDRAW CLAIMDRAW:
#   ::Xfcc::Send, whose ::Xfcc::SOAPError writes what the server answered on the console; the
#   answer's word itself on a line RESULT <word>.

package require http
package require tdom

lassign $argv source workdir form command
set args [lrange $argv 4 end]

proc tk {what} { return "x11" }
set ::scidVersion "4.7.4"
set ::scidVersionDate "corr-test"
namespace eval ::splash { proc add {text} {} }
proc scidConfigFile {name} { return [file join $::workdir $name] }
namespace eval ::CorrespondenceChess { proc updateConsole {line} { puts "CONSOLE $line" } }
proc tk_messageBox {args} { puts "MESSAGEBOX [dict get $args -message]" }

# The Xfcc namespace, read from Scid's file: from its first line to the line that completes the command.
set file [open $source r]
set chunk ""
set inside 0
while {[gets $file line] >= 0} {
	if {!$inside && [string match "namespace eval Xfcc \{*" $line]} { set inside 1 }
	if {$inside} {
		append chunk $line "\n"
		if {[info complete $chunk]} { break }
	}
}
close $file
if {$chunk eq ""} { error "no `namespace eval Xfcc` in $source" }
eval $chunk
::http::config -useragent $::Xfcc::useragent

if {$form eq "prefixed"} {
	proc ::Xfcc::Prefixed {uri action inner} {
		set xml {<?xml version="1.0" encoding="utf-8"?><s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body>}
		append xml "<x:$action xmlns:x=\"http://www.bennedik.com/webservices/XfccBasic\">$inner</x:$action>"
		append xml {</s:Body></s:Envelope>}
		set token [::http::geturl $uri -type "text/xml; charset=utf-8" -query $xml \
			-headers [list SOAPAction "\"http://www.bennedik.com/webservices/XfccBasic/$action\""]]
		set result [::http::data $token]
		::http::cleanup $token
		return $result
	}
	proc ::Xfcc::Receive {uri username password} {
		return [::Xfcc::Prefixed $uri GetMyGames "<x:username>$username</x:username><x:password>$password</x:password>"]
	}
	proc ::Xfcc::SendMove {uri username password gameid movecount move comment resign acceptdraw offerdraw claimdraw} {
		set inner ""
		foreach {name value} [list username [::Xfcc::xmlencrypt $username] password [::Xfcc::xmlencrypt $password] \
				gameId $gameid resign $resign acceptDraw $acceptdraw movecount $movecount myMove $move \
				offerDraw $offerdraw claimDraw $claimdraw myMessage [::Xfcc::xmlencrypt $comment]] {
			append inner "<x:$name>$value</x:$name>"
		}
		return [::Xfcc::Prefixed $uri MakeAMove $inner]
	}
}

# What the server answered, as it came (Scid's console reads InvalidMoveNumber as "Invalid move!": its
# switch tries the pattern InvalidMove first): a line RESULT <MakeAMoveResult>, or FAULT <faultstring>.
rename ::Xfcc::SendMove ::Xfcc::SendMoveAsSent
proc ::Xfcc::SendMove {args} {
	set xml [::Xfcc::SendMoveAsSent {*}$args]
	if {[regexp {<MakeAMoveResult>([^<]*)</MakeAMoveResult>} $xml -> word]} {
		puts "RESULT $word"
	} elseif {[regexp {<faultstring>([^<]*)</faultstring>} $xml -> text]} {
		puts "FAULT $text"
	}
	return $xml
}

# The configuration file Scid's dialog writes (::Xfcc::SaveXfcc's form), then Scid reads it.
lassign $args server uri user password
set rc [file join $workdir xfccrc]
set out [open $rc w]
puts $out "<xfcc>\n\t<server>\n\t\t<name>$server</name>\n\t\t<uri>$uri</uri>\n\t\t<user>$user</user>"
puts $out "\t\t<pass>$password</pass>\n\t\t<rating>Elo</rating>\n\t</server>\n</xfcc>"
close $out
::Xfcc::ReadConfig $rc

switch -- $command {
	fetch {
		set inbox [file join $workdir inbox]
		file mkdir $inbox
		::Xfcc::ProcessAll $inbox
		foreach game $::Xfcc::xfccstate {
			array unset state
			foreach pair [lrange $game 1 end] { set state([lindex $pair 0]) [lindex $pair 1] }
			puts "STATE [lindex $game 0] $state(myTurn) $state(drawOffered) $state(mytime) $state(opptime)"
		}
	}
	send {
		lassign [lrange $args 4 end] gameid movecount move resign acceptdraw offerdraw claimdraw
		::Xfcc::Send $server $gameid $movecount $move "" $resign $acceptdraw $offerdraw $claimdraw
	}
	default { error "unknown command $command" }
}
